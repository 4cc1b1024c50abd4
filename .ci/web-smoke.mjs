// The browser half of .ci/web-smoke: drives Debian's chromium, headless,
// through the DevTools protocol (Node's own WebSocket; no package), against
// a running `dpso serve --web`.
//
//   node web-smoke.mjs BASE_URL SERVER_PID SCREENSHOT_DIR TABS PROFILE_DIR
//
// PROFILE_DIR is chromium's fresh profile (the caller removes it).
// Each of TABS tabs opens BASE_URL/?preset=3 at 1100×760 and must show
// "preset 3" in the terminal's rows (read from the page's DOM), finish the
// preset's run, run it again on r (each tab its own runs), with no
// Content-Security-Policy violation, the page's title and language set
// and the keyboard focus in the terminal. A phone-sized tab (390×844) must
// show the explorer's layout, not its too-small notice. Then the server
// gets SIGTERM, and every tab must show the server's message. Screenshots
// of the first tab (after its run) and of the phone tab are written to
// SCREENSHOT_DIR. Every wait is bounded; the first failure exits 1.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [base, serverPid, shots, tabsArg, profile] = process.argv.slice(2);
const tabCount = Number(tabsArg || "1");
const browser = spawn(process.env.CHROMIUM || "chromium", [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank",
], { stdio: ["ignore", "ignore", "pipe"], detached: true });

// done ends the test: chromium's process group (its renderers too) is
// killed.
function done(code, message) {
  if (message) {
    (code === 0 ? console.log : console.error)(message);
  }
  try {
    process.kill(-browser.pid, "SIGKILL");
  } catch {
    // already gone
  }
  process.exit(code);
}
const fail = (message) => done(1, "web-smoke: FAIL: " + message);
setTimeout(() => fail("the whole browser test took more than 240 s"), 240_000).unref();

// The DevTools address chromium prints on its standard error.
const devtools = await new Promise((resolve, reject) => {
  let err = "";
  browser.stderr.on("data", (chunk) => {
    err += chunk;
    const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
    if (m) resolve(m[1]);
  });
  browser.on("exit", (code) => reject(new Error(`chromium exited (${code}) before listening:\n${err}`)));
}).catch((e) => fail(e.message));

// A DevTools protocol connection: send(method, params, session) answers
// with the result; events go to the listeners.
const ws = new WebSocket(devtools);
await new Promise((resolve) => ws.addEventListener("open", resolve, { once: true }));
let nextId = 0;
const pending = new Map();
ws.addEventListener("message", (ev) => {
  const msg = JSON.parse(ev.data);
  const p = pending.get(msg.id);
  if (p) {
    pending.delete(msg.id);
    msg.error ? p.reject(new Error(JSON.stringify(msg.error))) : p.resolve(msg.result);
  }
});
function send(method, params = {}, sessionId) {
  const id = ++nextId;
  ws.send(JSON.stringify({ id, method, params, sessionId }));
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

// A tab: open, evaluate, wait, key, screenshot.
async function openTab(url, width, height, mobile) {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const tab = {
    name: url,
    eval: async (expression) => (await send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)).result.value,
    key: async (key) => {
      const code = "Key" + key.toUpperCase();
      const vk = key.toUpperCase().charCodeAt(0);
      await send("Input.dispatchKeyEvent", { type: "keyDown", key, code, text: key, windowsVirtualKeyCode: vk }, sessionId);
      await send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: vk }, sessionId);
    },
    shot: async (file) => {
      const { data } = await send("Page.captureScreenshot", { format: "png" }, sessionId);
      writeFileSync(file, Buffer.from(data, "base64"));
    },
  };
  await send("Page.enable", {}, sessionId);
  await send("Runtime.enable", {}, sessionId);
  await send("Emulation.setFocusEmulationEnabled", { enabled: true }, sessionId);
  await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile }, sessionId);
  // Every CSP violation the page meets is kept, for the test to read.
  await send("Page.addScriptToEvaluateOnNewDocument", {
    source: "window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));",
  }, sessionId);
  await send("Page.navigate", { url }, sessionId);
  return tab;
}

const rows = "Array.from(document.querySelectorAll('.xterm-rows > div'), (d) => d.textContent).join('\\n')";
const statusText = "document.getElementById('status').textContent";

// waitFor polls expression in tab until test(value) holds.
async function waitFor(tab, what, expression, test, seconds) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    last = await tab.eval(expression);
    if (test(last)) return last;
    if (Date.now() > deadline) {
      fail(`${tab.name}: no ${what} within ${seconds} s; it showed:\n${last}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

// The run number the status bar shows once a run is done ("run #N").
const runDone = (n) => (text) => new RegExp(`✓ done|done .*run #${n}\\b`).test(text) && new RegExp(`run #${n}\\b`).test(text);

const url = base + (base.includes("?") ? "&" : "?") + "preset=3";
const tabs = [];
for (let i = 0; i < tabCount; i++) {
  tabs.push(await openTab(url, 1100, 760, false));
}
for (const tab of tabs) {
  await waitFor(tab, '"preset 3" in the rows', rows, (t) => t.includes("preset 3"), 30);
}
console.log(`web-smoke: ${tabCount} tab(s) show preset 3`);
for (const [i, tab] of tabs.entries()) {
  const facts = await tab.eval(`JSON.stringify({title: document.title, lang: document.documentElement.lang,
    focus: document.activeElement && document.activeElement.className, csp: window.__csp})`);
  const f = JSON.parse(facts);
  if (f.lang !== "en" || !f.title.includes("preset 3") || !String(f.focus).includes("xterm-helper-textarea") || f.csp.length) {
    fail(`tab ${i + 1}: title, language, focus or CSP wrong: ${facts}`);
  }
}
console.log("web-smoke: title, lang, focus on the terminal, no CSP violation");
// The preset runs as it loads (run #1); r runs it again (run #2) in that
// tab only.
for (const tab of tabs) {
  await waitFor(tab, "the preset's first run done", rows, runDone(1), 120);
}
await tabs[0].key("r");
await waitFor(tabs[0], "the second run (r) done", rows, runDone(2), 120);
for (const tab of tabs.slice(1)) {
  const t = await tab.eval(rows);
  if (/run #2\b/.test(t)) fail("r in the first tab ran in another tab too:\n" + t);
  await tab.key("r");
  await waitFor(tab, "its own second run (r) done", rows, runDone(2), 120);
}
const result = (await tabs[0].eval(rows)).split("\n").filter((l) => /run #2|excess risk/.test(l)).join("\n");
console.log("web-smoke: r ran the preset again in each tab:\n" + result);
await tabs[0].shot(join(shots, "web-preset3.png"));

const phone = await openTab(base, 390, 844, true);
await waitFor(phone, "the explorer at a phone's width", rows, (t) => t.includes("reproduce: dpso run"), 30);
const small = await phone.eval(rows);
if (/need ≥/.test(small)) fail("a phone's width shows the too-small notice:\n" + small);
await phone.shot(join(shots, "web-phone.png"));
console.log("web-smoke: a phone's width shows the explorer's layout");

process.kill(Number(serverPid), "SIGTERM");
for (const tab of [...tabs, phone]) {
  await waitFor(tab, "the server's message after SIGTERM", statusText, (t) => t.includes("the server is stopping (it got SIGTERM)"), 20);
}
done(0, `web-smoke: SIGTERM told every tab (${tabs.length + 1}): the server is stopping`);
