// For a page that embeds Stepwise debuggers in <iframe>s: each frame is sized to its content as it grows
// and shrinks. Optional (without it a frame keeps the height the snippet gives it); one line on the host:
//   <script src=".../assets/js/embed-host.js" async></script>
// A frame says its height with postMessage (lesson.js); only a frame of this page is ever resized.
addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "stepwise-embed-height" || !(data.height > 0)) return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.min(Math.ceil(data.height), 20000)}px`;
  }
});
