// The lesson list: only the language switch.
import { initialLang, rememberLang } from "./i18n.js";

const button = document.getElementById("lang-switch");
function apply(lang) {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.documentElement.dataset.lang = lang;
  button.textContent = lang === "zh" ? "English" : "中文";
  button.setAttribute("aria-label", lang === "zh" ? "Switch to English" : "切换到中文");
}
let lang = initialLang();
apply(lang);
button.addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  rememberLang(lang);
  apply(lang);
});
