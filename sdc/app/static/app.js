"use strict";
// sdc app: every action is one request to the local server (/api/<name>), which calls sdc's
// workflow; this page only shows what comes back. Text is always set as text (never as HTML),
// except the report pages, which sdc renders escaped and which are shown in sandboxed frames.
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const ROLES = [["", "—"], ["categorical_keys", "categorical key"], ["continuous_keys", "continuous key"],
  ["sensitive", "sensitive"], ["weights", "weight"], ["household", "household id"], ["id", "record id"]];
const SINGLE = new Set(["weights", "household", "id"]);
let state = {}, methods = [];

const $ = (id) => document.getElementById(id);
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

let timer = null, poll = null;
function busy(on) {
  $("busy").hidden = !on;
  clearInterval(timer); clearInterval(poll);
  if (on) { const t0 = Date.now(); $("elapsed").textContent = "0"; $("stage").textContent = "";
    timer = setInterval(() => { $("elapsed").textContent = Math.round((Date.now() - t0) / 1000); }, 500);
    poll = setInterval(progress, 700); }
}
// The running action's stage and count, asked while the action's own request waits.
async function progress() {
  try {
    const r = await fetch("/api/progress", {headers: {"X-Sdc-Token": TOKEN}});
    const p = await r.json();
    if (!p.action || $("busy").hidden) return;
    const count = p.total ? ` ${p.done} of ${p.total}` : (p.done ? ` ${p.done}` : "");
    $("stage").textContent = p.stage ? `${p.action}: ${p.stage}${count}` : p.action;
  } catch (e) { /* the action's own answer reports errors */ }
}

async function api(name, body, raw) {
  $("error").hidden = true;
  busy(true);
  try {
    const headers = {"X-Sdc-Token": TOKEN};
    let payload;
    if (raw) { headers["X-Filename"] = raw.name; payload = raw; }
    else { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body || {}); }
    const r = await fetch("/api/" + name, {method: "POST", headers, body: payload});
    const doc = await r.json();
    if (!r.ok) throw new Error(doc.error || ("HTTP " + r.status));
    return doc;
  } catch (e) {
    $("error").textContent = e.message; $("error").hidden = false; throw e;
  } finally { busy(false); }
}

function table(doc, caption) {
  const wrap = el("div");
  if (caption) wrap.appendChild(el("p", caption, "caption"));
  const t = el("table"), head = el("tr");
  doc.columns.forEach((c) => head.appendChild(el("th", c)));
  t.appendChild(head);
  const verdict = doc.columns.indexOf("verdict"), seedColumn = doc.columns.indexOf("seed");
  doc.rows.forEach((row) => {
    const tr = el("tr"), isSeed = /\bseed\b/.test(String(row[0]));  // a seed is an identifier, not a quantity
    row.forEach((v, i) => {
      const raw = isSeed || i === seedColumn;
      const td = el("td", v === null ? "" : (typeof v === "number" && !raw ? fmt(v) : v), typeof v === "number" ? "num" : "");
      if (i === verdict) td.classList.add(v);
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
  wrap.appendChild(t);
  if (doc.total > doc.rows.length) wrap.appendChild(el("p", `showing ${doc.rows.length} of ${doc.total} rows`, "caption"));
  return wrap;
}
function fmt(v) { return Number.isInteger(v) ? v.toLocaleString("en") : Number(v.toPrecision(6)).toString(); }
function show(id, ...nodes) { const box = $(id); box.replaceChildren(...nodes); }
function frame(id, html) { const f = $(id); f.setAttribute("sandbox", ""); f.srcdoc = html; f.hidden = false; }

function page(name) {
  document.querySelectorAll("nav button").forEach((b) => b.classList.toggle("on", b.dataset.page === name));
  document.querySelectorAll("main section").forEach((s) => { s.hidden = s.id !== name; });
  if (name === "identify" && state.open) loadSuggestions();
  if (name === "protect" && !methods.length) loadMethods();
  if (name === "compare") sweepForm();
}

function refresh(s) {
  state = s;
  $("file").textContent = s.open ? `${s.name}: ${s.records.toLocaleString("en")} records, ${s.columns.length} columns` : "no data open";
  $("undo").disabled = !s.can_undo; $("redo").disabled = !s.can_redo;
  $("open-start").hidden = !s.start;
  if (s.start) $("open-start").textContent = "Open " + s.start;
  if (!s.open) return;
  rolesForm(s); scenarioTable(s); planTable(s); hierarchyVariables(s);
  ["k", "l", "t"].forEach((k) => { $("thr-" + k).value = s.thresholds[k] ?? ""; });
  $("seed").value = s.seed;
}

function rolesForm(s) {
  const t = el("table"), head = el("tr");
  ["column", "role"].forEach((c) => head.appendChild(el("th", c)));
  t.appendChild(head);
  s.columns.forEach((col) => {
    const tr = el("tr"), sel = el("select");
    sel.dataset.column = col;
    ROLES.forEach(([v, label]) => { const o = el("option", label); o.value = v; sel.appendChild(o); });
    const role = Object.keys(s.roles).find((r) => [].concat(s.roles[r] || []).includes(col));
    sel.value = role || "";
    tr.appendChild(el("td", col)); const td = el("td"); td.appendChild(sel); tr.appendChild(td);
    t.appendChild(tr);
  });
  show("roles-form", t);
}

async function applyRoles() {
  const roles = {};
  ROLES.forEach(([r]) => { if (r) roles[r] = SINGLE.has(r) ? "" : []; });
  document.querySelectorAll("#roles-form select").forEach((sel) => {
    const r = sel.value; if (!r) return;
    if (SINGLE.has(r)) {
      if (roles[r]) { $("error").textContent = `only one column can be the ${r}`; $("error").hidden = false; throw new Error(r); }
      roles[r] = sel.dataset.column;
    } else roles[r].push(sel.dataset.column);
  });
  const thresholds = {};
  ["k", "l", "t"].forEach((k) => { const v = $("thr-" + k).value.trim(); if (v) thresholds[k] = Number(v); });
  refresh(await api("roles", {roles, thresholds}));
}

// The key scenarios: a table with a remove button each; the form adds one (or, with the name of
// an existing one, gives it new keys) with keys among the columns that have a key role.
function scenarioTable(s) {
  const keys = [...(s.roles.categorical_keys || []), ...(s.roles.continuous_keys || [])];
  $("scenario-keys").replaceChildren(...keys.map((c) => { const o = el("option", c); o.value = c; return o; }));
  if (!s.scenarios.length) { show("scenarios", el("p", "No scenario: the assessment takes every key.", "caption")); return; }
  const t = el("table"), head = el("tr");
  ["scenario", "keys", ""].forEach((c) => head.appendChild(el("th", c)));
  t.appendChild(head);
  s.scenarios.forEach((sc) => {
    const tr = el("tr"), td = el("td"), b = el("button", "remove");
    b.dataset.scenario = sc.name;
    b.onclick = async () => refresh(await api("remove_scenario", {name: sc.name}));
    tr.appendChild(el("td", sc.name)); tr.appendChild(el("td", sc.keys.join(", ")));
    td.appendChild(b); tr.appendChild(td); t.appendChild(tr);
  });
  show("scenarios", t);
}

async function addScenario() {
  const keys = Array.from($("scenario-keys").selectedOptions).map((o) => o.value);
  refresh(await api("set_scenario", {name: $("scenario-name").value, keys}));
  $("scenario-name").value = "";
}

async function loadSuggestions() {
  const d = await api("identify");
  show("suggested", table(d.roles, "Suggested roles, with their reasons"),
       table(d.safe_harbor, "HIPAA Safe Harbor: the 18 identifier categories"));
}

async function loadMethods() {
  methods = (await api("methods")).methods;
  const sel = $("method");
  sel.replaceChildren(...methods.map((m) => { const o = el("option", m.name); o.value = m.name; return o; }));
  methodForm();
}

function methodForm() {
  const m = methods.find((x) => x.name === $("method").value);
  if (!m) return;
  $("method-summary").textContent = m.summary;
  const form = el("div", null, "form");
  const vars = el("select"); vars.multiple = true; vars.size = 6; vars.id = "step-variables";
  (state.columns || []).forEach((c) => { const o = el("option", c); o.value = c; vars.appendChild(o); });
  const row = el("div"); row.appendChild(el("label", m.variables)); row.appendChild(vars); form.appendChild(row);
  m.params.forEach((p) => {
    const r = el("div"), input = el("input");
    input.dataset.param = p.name; input.type = p.secret ? "password" : "text";
    input.placeholder = p.default === null ? "" : JSON.stringify(p.default);
    r.appendChild(el("label", p.name)); r.appendChild(input);
    r.appendChild(el("span", `${p.rule}${p.help ? ": " + p.help : ""}`, "help"));
    form.appendChild(r);
  });
  show("method-form", form);
}

function parse(text) { try { return JSON.parse(text); } catch (e) { return text; } }
function currentStep() {
  const m = methods.find((x) => x.name === $("method").value);
  const step = {method: m.name};
  step[m.variables] = Array.from($("step-variables").selectedOptions).map((o) => o.value);
  document.querySelectorAll("#method-form input").forEach((i) => {
    const v = i.value.trim(); if (v) step[i.dataset.param] = parse(v);
  });
  return step;
}

function planTable(s) {
  if (!s.steps.length) { show("plan", el("p", "No step yet.", "caption")); return; }
  const t = el("table"), head = el("tr");
  ["#", "method", "parameters", ""].forEach((c) => head.appendChild(el("th", c)));
  t.appendChild(head);
  s.steps.forEach((st, i) => {
    const tr = el("tr"), {method, ...rest} = st, td = el("td");
    tr.appendChild(el("td", i + 1)); tr.appendChild(el("td", method)); tr.appendChild(el("td", JSON.stringify(rest)));
    [["↑", () => api("move_step", {index: i, to: i - 1}), i > 0],
     ["↓", () => api("move_step", {index: i, to: i + 1}), i < s.steps.length - 1],
     ["remove", () => api("remove_step", {index: i}), true]].forEach(([label, go, ok]) => {
      const b = el("button", label); b.disabled = !ok; b.dataset.step = i;
      b.onclick = async () => refresh(await go()); td.appendChild(b);
    });
    tr.appendChild(td); t.appendChild(tr);
  });
  show("plan", t);
}

// The sweep: a step of the plan, one of its parameters (from the method's declaration), the
// values to try; the answer's points are drawn as an SVG plane, each with its details on hover.
let axes = null;
async function sweepForm() {
  if (!state.open) return;
  if (!methods.length) methods = (await api("methods")).methods;
  if (!axes) {
    axes = await api("sweep_axes");
    [["sweep-risk", axes.risk, axes.default_risk], ["sweep-utility", axes.utility, axes.default_utility]].forEach(([id, list, d]) => {
      $(id).replaceChildren(...list.map(([v, label]) => { const o = el("option", label); o.value = v; return o; }));
      $(id).value = d;
    });
  }
  const steps = state.steps || [], sel = $("sweep-step"), was = sel.value;
  sel.replaceChildren(...steps.map((st, i) => { const o = el("option", `${i + 1} ${st.method}`); o.value = i; return o; }));
  if (was && was < steps.length) sel.value = was;
  sweepParams();
}
function sweepParams() {
  const st = (state.steps || [])[Number($("sweep-step").value)];
  const m = st && methods.find((x) => x.name === st.method);
  $("sweep-param").replaceChildren(...(m ? m.params : []).map((p) => { const o = el("option", p.name); o.value = p.name; return o; }));
  if (m && m.params.some((p) => p.name === "k")) $("sweep-param").value = "k";
}
async function runSweep() {
  const values = $("sweep-values").value.split(",").map((v) => v.trim()).filter((v) => v).map(parse);
  const d = await api("sweep", {index: Number($("sweep-step").value), parameter: $("sweep-param").value, values,
    risk_axis: $("sweep-risk").value, utility_axis: $("sweep-utility").value});
  show("sweep-plane", plane(d.plane));
  $("sweep-hover").textContent = "Hover a point: its setting, risk and utility.";
  show("sweep-table", table(d.table, "Every setting (row 0: the original data)"), table(d.summary, "The sweep"),
       el("p", "The sweep plan: saved as sweep.toml, `sdc sweep DATA --plan sweep.toml --out DIR` reruns it to the same table.", "caption"),
       el("pre", d.plan_toml));
}
const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}
function plane(p) {
  const W = 680, H = 400, L = 90, R = 30, T = 20, B = 50, pts = p.points.filter((q) => q.x !== null && q.y !== null);
  if (!pts.length) return el("p", "No setting has both figures defined: nothing to draw.", "caption");
  // each axis padded by 8 %, never below 0 when no figure is (shares, counts, percents)
  const span = (vs) => { let lo = Math.min(...vs), hi = Math.max(...vs);
    if (hi === lo) { const d = Math.abs(lo) * 0.1 || 0.5; lo -= d; hi += d; }
    const pad = (hi - lo) * 0.08, floor = Math.min(...vs) >= 0 ? 0 : -Infinity;
    return [Math.max(floor, lo - pad), hi + pad]; };
  const tick = (v) => String(Number(v.toPrecision(3)));
  const [x0, x1] = span(pts.map((q) => q.x)), [y0, y1] = span(pts.map((q) => q.y));
  const X = (v) => L + (v - x0) / (x1 - x0) * (W - L - R), Y = (v) => H - B - (v - y0) / (y1 - y0) * (H - T - B);
  const s = svg("svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "risk against utility"});
  s.appendChild(svg("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#555"}));
  s.appendChild(svg("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#555"}));
  [[x0, x1, true], [y0, y1, false]].forEach(([lo, hi, isX]) => {
    for (let i = 0; i <= 4; i++) {
      const v = lo + (hi - lo) * i / 4;
      s.appendChild(isX ? svg("text", {x: X(v), y: H - B + 16, "text-anchor": "middle", "font-size": 10}, tick(v))
                        : svg("text", {x: L - 6, y: Y(v) + 3, "text-anchor": "end", "font-size": 10}, tick(v)));
    }
  });
  s.appendChild(svg("text", {x: (L + W - R) / 2, y: H - 10, "text-anchor": "middle", "font-size": 11}, p.x_label));
  s.appendChild(svg("text", {x: 14, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 11,
    transform: `rotate(-90 14 ${(T + H - B) / 2})`}, p.y_label));
  const front = pts.filter((q) => q.non_dominated).sort((a, b) => a.x - b.x);
  if (front.length > 1) s.appendChild(svg("polyline", {points: front.map((q) => `${X(q.x)},${Y(q.y)}`).join(" "),
    fill: "none", stroke: "#888"}));
  pts.forEach((q) => {
    const base = q.setting === 0, detail = `${base ? "the original data" : "setting " + q.setting}: ${q.label}; ` +
      `${p.x_label}: ${fmt(q.x)}; ${p.y_label}: ${fmt(q.y)}${q.non_dominated ? "; non-dominated" : ""}`;
    const c = svg("circle", {cx: X(q.x), cy: Y(q.y), r: base ? 7 : 5, fill: base ? "#000" : "#3b6ea5",
      stroke: q.non_dominated ? "#000" : "none", "stroke-width": q.non_dominated ? 1.5 : 0, "data-setting": q.setting});
    c.appendChild(svg("title", {}, detail));
    c.addEventListener("mouseenter", () => { $("sweep-hover").textContent = detail; });
    s.appendChild(c);
    if (base) s.appendChild(svg("text", {x: X(q.x) - 9, y: Y(q.y) - 9, "font-size": 10, "text-anchor": "end",
      "font-weight": "bold"}, "original data"));
    else if (q.non_dominated) s.appendChild(svg("text", {x: X(q.x) + 7, y: Y(q.y) - 6, "font-size": 10}, q.setting));
  });
  return s;
}

// The hierarchy editor: the builder's levels (a text field, or lines of `value = group`), the
// table of every value's labels, a button per level that adds its recode step.
const HIER_HINTS = {intervals: "5, 10, 20", prefix: "4, 3, 2 (empty: one fewer per level)",
  dates: "month, quarter, year, decade", groups: ""};
function hierarchyVariables(s) {
  const sel = $("hier-variable"), was = sel.value;
  sel.replaceChildren(...s.columns.map((c) => { const o = el("option", c); o.value = c; return o; }));
  if (s.columns.includes(was)) sel.value = was;
}
function hierarchyKind() {
  const k = $("hier-kind").value, groups = k === "groups";
  $("hier-levels").hidden = groups; $("hier-groups").hidden = !groups; $("hier-fill").hidden = !groups;
  $("hier-levels").placeholder = HIER_HINTS[k];
}
function hierarchyRequest() {
  const kind = $("hier-kind").value;
  return {variable: $("hier-variable").value, kind, levels: kind === "groups" ? $("hier-groups").value : $("hier-levels").value};
}
async function hierarchyFill() {
  const d = await api("hierarchy_values", {variable: $("hier-variable").value});
  $("hier-groups").value = d.values.map((v) => `${v} = ${v}`).join("\n");
  if (d.total > d.values.length) { $("error").textContent = `the first ${d.values.length} of ${d.total} values`; $("error").hidden = false; }
}
async function hierarchyBuild() {
  const req = hierarchyRequest(), d = await api("hierarchy", req);
  const buttons = d.levels.map((lv) => {
    const b = el("button", `Recode ${d.variable} to level ${lv.level} (${lv.labels} label${lv.labels === 1 ? "" : "s"})`);
    b.dataset.level = lv.level;
    b.onclick = async () => refresh(await api("recode_level", {...req, level: lv.level}));
    return b;
  });
  const csv = el("details"); csv.appendChild(el("summary", "The hierarchy as ARX's CSV (sdc search and ARX read it)"));
  csv.appendChild(el("pre", d.csv));
  show("hier-levels-buttons", ...buttons);
  show("hier-table", table(d.table, `${d.name}: every value of ${d.variable}, its label per level, its records`), csv);
}

function runTables(d) {
  const out = [table(d.summary, "The run"), table(d.steps, "Each step")];
  if (d.comparison) out.push(table(d.comparison, "Before and after"));
  return out;
}

window.addEventListener("DOMContentLoaded", async () => {
  document.querySelectorAll("nav button").forEach((b) => { b.onclick = () => page(b.dataset.page); });
  $("open-example").onclick = async () => { refresh(await api("open", {source: "example"})); preview(); };
  $("open-start").onclick = async () => { refresh(await api("open", {source: "start"})); preview(); };
  $("upload").onchange = async (e) => { const f = e.target.files[0]; if (f) { refresh(await api("upload", null, f)); preview(); } };
  $("apply-roles").onclick = applyRoles;
  $("add-scenario").onclick = addScenario;
  $("undo").onclick = async () => refresh(await api("undo"));
  $("redo").onclick = async () => refresh(await api("redo"));
  $("run-assess").onclick = async () => { const d = await api("assess"); show("verdicts", table(d.verdicts, "Verdicts, every scenario")); frame("assess-page", d.page); };
  $("method").onchange = methodForm;
  $("preview-step").onclick = async () => show("step-preview", ...runTables(await api("preview_step", {step: currentStep()})));
  $("add-step").onclick = async () => { refresh(await api("add_step", {step: currentStep()})); show("step-preview"); };
  $("set-seed").onclick = async () => refresh(await api("seed", {seed: Number($("seed").value)}));
  $("run-plan").onclick = async () => { const d = await api("run"); show("run-summary", ...runTables(d)); if (d.page) frame("compare-page", d.page); };
  $("sweep-step").onchange = sweepParams;
  $("hier-kind").onchange = hierarchyKind;
  $("hier-fill").onclick = hierarchyFill;
  $("hier-build").onclick = hierarchyBuild;
  $("run-sweep").onclick = runSweep;
  $("run-export").onclick = async () => {
    const d = await api("export", {external: $("external").checked});
    const list = el("ul"); d.files.forEach((f) => list.appendChild(el("li", f)));
    show("exported", el("p", "Written to " + d.folder), list, el("p", "Rerun it with:"), el("pre", d.command));
  };
  refresh(await api("state"));
});
async function preview() {
  const d = await api("preview");
  show("preview", table(d.columns, "Columns"), table(d.head, "The first records"));
}
