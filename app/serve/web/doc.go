// Package web is the page of dpso serve's browser transport: an HTML page
// that runs a terminal (xterm.js, with its fit addon) over a WebSocket to
// the server, where the explorer runs as in an SSH session.
//
// Everything the page loads is embedded in the binary and served from the
// same origin; nothing comes from elsewhere, and nothing is fetched at run
// time. xterm.js and its fit addon are vendored as their packages build
// them (the ES modules, the stylesheet and the licences, in xterm/ and
// xterm-addon-fit/, with a VERSION file each); vendor.sh re-fetches them
// at their pinned versions and checks each package's integrity.
//
// The page is served under a strict Content-Security-Policy (CSP): scripts
// and stylesheets from the page's own origin only, the WebSocket to that
// origin only, no images, fonts, frames or forms from anywhere, and the
// page framed only by the pages dpso serve --frame-ancestors names (by
// default none: frame-ancestors 'none', against clickjacking). xterm.js's
// DOM renderer creates <style> elements for its colours and cell sizes;
// each page carries a fresh nonce that the CSP allows, and the page's
// script stamps it on every <style> element created (nothing else may
// create one: only the page's own scripts run).
//
// The wire protocol between the page and the server (WebSocket messages):
//
//   - page to server, a text message: the terminal's size as JSON,
//     {"cols":C,"rows":R}; the first one, sent once the socket opens, also
//     says whether the page is light ({"light":true}).
//   - page to server, a binary message: what was typed or pasted (UTF-8).
//   - server to page, a binary message: what the explorer draws.
//   - server to page, a text message: a line to show outside the explorer,
//     as JSON {"say":"…"} (a refusal, or why the session ended), or the
//     page's status line while the explorer runs, {"status":"…"} (an
//     instructor's offer, which a screen reader announces; "" gives the
//     line back its own words).
//
// The page's address holds dpso explore's flags as its query (?preset=3,
// ?state=S, ?preset=4&screen=clip) and the class token (?token=T); the
// page opens the WebSocket /ws with the same query.
package web
