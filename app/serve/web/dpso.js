// The page of dpso serve's browser transport: a terminal (xterm.js) whose
// keys and size go to the server over a WebSocket and whose screen is what
// the explorer draws there. The protocol is described in doc.go beside
// this file.
import { Terminal } from "./xterm/xterm.mjs";
import { FitAddon } from "./xterm-addon-fit/addon-fit.mjs";

// xterm.js's DOM renderer creates <style> elements; the page's CSP allows
// those that carry this page's nonce, which each gets as it is created.
const nonce = document.querySelector("script[nonce]").nonce;
const createElement = Document.prototype.createElement;
Document.prototype.createElement = function (name, options) {
  const el = createElement.call(this, name, options);
  if (String(name).toLowerCase() === "style") {
    el.setAttribute("nonce", nonce);
  }
  return el;
};

const status = document.getElementById("status");
const reader = document.getElementById("reader");
const light = window.matchMedia("(prefers-color-scheme: light)").matches;

// The explorer's layout needs 80 columns and 24 rows: the font shrinks
// (down to minFont) until they fit, as on a phone.
const cols0 = 80, rows0 = 24, maxFont = 15, minFont = 5;

const term = new Terminal({
  fontFamily: '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
  fontSize: maxFont,
  scrollback: 0,
  // A terminal's line discipline turns each newline into a carriage
  // return and a newline (onlcr); the explorer's drawing relies on it.
  convertEol: true,
  theme: light
    ? { background: "#ffffff", foreground: "#1e1e1e", cursor: "#1e1e1e", selectionBackground: "#b5d5ff" }
    : { background: "#1e1e1e", foreground: "#e0e0e0", cursor: "#e0e0e0" },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("terminal"));

function refit() {
  for (let size = maxFont; size >= minFont; size--) {
    term.options.fontSize = size;
    const d = fit.proposeDimensions();
    if (d && d.cols >= cols0 && d.rows >= rows0) {
      break;
    }
  }
  fit.fit();
}
refit();

const query = new URLSearchParams(location.search);
const what = query.get("preset") ? "preset " + query.get("preset") : query.get("state") ? "a state string" : "";
document.title = what ? "dpso explorer: " + what : "dpso explorer";

const url = new URL("/ws" + location.search, location.href);
url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
const ws = new WebSocket(url);
ws.binaryType = "arraybuffer";
const encoder = new TextEncoder();
let said = "";
const connected = "Connected: ? lists the keys, q ends the session.";

function send(data) {
  if (ws.readyState === WebSocket.OPEN) {
    ws.send(data);
  }
}

ws.addEventListener("open", () => {
  send(JSON.stringify({ cols: term.cols, rows: term.rows, light }));
  status.textContent = connected;
  term.focus();
});
ws.addEventListener("message", (ev) => {
  if (typeof ev.data === "string") {
    const msg = JSON.parse(ev.data);
    // The server's words for the status line while the explorer runs
    // (an instructor's offer); "" gives the line back its own.
    if (typeof msg.status === "string") {
      status.textContent = msg.status || connected;
      return;
    }
    if (typeof msg.say === "string") {
      said = msg.say;
      term.write("\r\n" + msg.say + "\r\n");
      status.textContent = msg.say;
    }
    return;
  }
  term.write(new Uint8Array(ev.data));
});
ws.addEventListener("close", () => {
  term.options.disableStdin = true;
  if (!said) {
    status.textContent = "The connection to the explorer closed; reload the page to start again.";
  }
});

// The explorer's y copies with OSC 52 (ESC ] 52 ; c ; base64): the page
// puts the text on the clipboard where the browser allows it.
term.parser.registerOscHandler(52, (data) => {
  try {
    const bytes = Uint8Array.from(atob(data.slice(data.indexOf(";") + 1)), (c) => c.charCodeAt(0));
    navigator.clipboard?.writeText(new TextDecoder().decode(bytes)).catch(() => {});
  } catch {
    // not base64: nothing to copy
  }
  return true;
});

// What is typed or pasted goes in messages of at most 16 KiB (the server
// takes 64 KiB at most; a paste's end beyond 1 MiB is dropped there).
const chunk = 16384;
term.onData((data) => {
  const bytes = encoder.encode(data);
  for (let i = 0; i < bytes.length; i += chunk) {
    send(bytes.subarray(i, i + chunk));
  }
});
term.onBinary((data) => send(Uint8Array.from(data, (c) => c.charCodeAt(0))));
term.onResize(({ cols, rows }) => send(JSON.stringify({ cols, rows })));

// The terminal's box changes with the window and with the status line's
// height (it wraps on a phone): refit then.
let pending = 0;
new ResizeObserver(() => {
  clearTimeout(pending);
  pending = setTimeout(refit, 100);
}).observe(document.getElementById("terminal"));

reader.addEventListener("click", () => {
  const on = !term.options.screenReaderMode;
  term.options.screenReaderMode = on;
  reader.setAttribute("aria-pressed", String(on));
  term.focus();
});
term.focus();
