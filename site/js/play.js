// The playground page's script: its own part first (the editor, the input box, the hooks it gives
// lesson.js), then the lesson page's (the debugger, the link, the language). Modules run in import order.
import "./play-editor.js";
import "./lesson.js";
