// ESLint for the dashboard's browser scripts (dashboard/assets/*.js, loaded by Dash as assets;
// dashboard/head/*.js, inlined into the page's head by dashboard/static.py). They are plain
// scripts for the browser, written without a build step: each wraps itself in a function, in strict mode.
import js from "@eslint/js";
import globals from "globals";

export default [
    js.configs.recommended,
    {
        files: ["dashboard/assets/**/*.js", "dashboard/head/**/*.js"],
        languageOptions: {
            ecmaVersion: 2020,
            sourceType: "script",
            globals: {...globals.browser},
        },
        rules: {
            "strict": ["error", "function"],
            "eqeqeq": ["error", "always"],
            "no-var": "off",
            "no-implicit-globals": "error",
            "no-shadow": "error",
            "no-unused-vars": ["error", {args: "after-used"}],
            "no-use-before-define": ["error", {functions: false}],
            "curly": ["error", "all"],
        },
    },
];
