// Lint for the page's JavaScript and the node tests/benchmarks: ESLint's recommended rules, plain
// ES modules, browser or node globals as each file runs. `npm test` runs it (with `tsc`).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "dist/", ".venv/", "**/*.min.js"] },
  js.configs.recommended,
  {
    files: ["site/js/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["bench/probe.js"],   // injected into the page by the benchmark
    languageOptions: { ecmaVersion: 2023, sourceType: "script", globals: globals.browser },
  },
  {
    files: ["**/*.mjs", "eslint.config.js"],   // node: tests, benchmarks, the build's helpers
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^_" }],
    },
  },
];
