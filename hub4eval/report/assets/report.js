(function () {
"use strict";
var PAGE = __PAGE__;
var byId = function (id) { return document.getElementById(id); };
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function fmt(n) { return n.toLocaleString("en-US"); }

var COLUMN_TYPES = { Int8: Int8Array, Int16: Int16Array, Int32: Int32Array, Float64: Float64Array };

/* Deflated data: [JSON length, 4 bytes little-endian][JSON][padding to 4][point columns]; each column
   the JSON describes as {type, offset, length} is viewed in place (offsets from the first column). */
async function readData() {
  var block = byId("hub4eval-data");
  var text = block.textContent;
  if (block.getAttribute("data-encoding") !== "deflate-base64") return JSON.parse(text);
  if (typeof DecompressionStream === "undefined") {
    throw new Error("this browser cannot inflate the embedded data (no DecompressionStream)");
  }
  var binary = atob(text.trim());
  var bytes = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  var buffer = await new Response(stream).arrayBuffer();
  var length = new DataView(buffer).getUint32(0, true);
  var data = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length)));
  var base = 4 + length + (4 - (4 + length) % 4) % 4, p = data.points;
  Object.keys(p).forEach(function (name) {
    var c = p[name];
    if (c !== null && typeof c === "object" && !Array.isArray(c)) {
      p[name] = new COLUMN_TYPES[c.type](buffer, base + c.offset, c.length);
    }
  });
  return data;
}

function undelta(values, out, mask, side) {
  var previous = 0, j = 0;
  for (var i = 0; i < out.length; i++) {
    if (side[i] & mask) { previous += values[j++]; out[i] = previous; } else out[i] = -1;
  }
  return out;
}
/* "Fresh" coding: -1 takes the next new string of the table, -1 - d (d = 1..16) the string d places
   before it, n >= 0 string n. Reference and hypothesis fills share one table, reference first. */
function unfresh(columns, outs, masks, side) {
  var next = 0, j = columns.map(function () { return 0; });
  for (var i = 0; i < side.length; i++) {
    for (var c = 0; c < columns.length; c++) {
      if (side[i] & masks[c]) {
        var v = columns[c][j[c]++];
        outs[c][i] = v === -1 ? next++ : (v < 0 ? next + 1 + v : v);
      } else outs[c][i] = -1;
    }
  }
}

function decode(data) {
  var p = data.points, n = p.n, all = new Uint8Array(n).fill(3);
  var side = Uint8Array.from(p.side);
  var pts = {
    n: n, side: side,
    slot: Uint16Array.from(p.slot), kind: Uint8Array.from(p.kind), cat: Uint8Array.from(p.cat),
    doc: undelta(p.doc, new Int32Array(n), 3, all),
    refInst: undelta(p.refInst, new Int32Array(n), 1, side),
    refFill: new Int32Array(n),
    refLine: undelta(p.refLine, new Int32Array(n), 1, side),
    hypInst: undelta(p.hypInst, new Int32Array(n), 2, side),
    hypFill: new Int32Array(n),
    hypLine: undelta(p.hypLine, new Int32Array(n), 2, side),
    reason: new Int32Array(n),
    ctx: p.ctx ? Int32Array.from(p.ctx) : null
  };
  unfresh([p.refFill, p.hypFill], [pts.refFill, pts.hypFill], [1, 2], side);
  unfresh([p.reason], [pts.reason], [3], all);
  /* Each point's fields start where the previous point's end (its template says how many). */
  var fieldStart = new Int32Array(n + 1);
  for (var i = 0; i < n; i++) fieldStart[i + 1] = fieldStart[i] + data.reasonArity[pts.reason[i]];
  pts.fieldStart = fieldStart;
  pts.field = new Int32Array(p.field.length);  /* every entry listed: one "side" for all */
  unfresh([p.field], [pts.field], [1], new Uint8Array(p.field.length).fill(1));
  var counts = new Int32Array(data.slots.length);
  for (i = 0; i < n; i++) counts[pts.slot[i]]++;
  var bySlot = [];
  for (var s = 0; s < counts.length; s++) bySlot.push(new Int32Array(counts[s]));
  var fill = new Int32Array(counts.length);
  for (i = 0; i < n; i++) { s = pts.slot[i]; bySlot[s][fill[s]++] = i; }
  data.pts = pts;
  data.bySlot = bySlot;
  return data;
}

/* A table showing one page of rows at a time, with a pager above it. */
function Paged(host, head, opts) {
  this.host = host; this.opts = opts; this.page = 0;
  this.nav = el("div", "pager");
  this.first = el("button", null, "\u00ab First"); this.prev = el("button", null, "\u2039 Previous");
  this.next = el("button", null, "Next \u203a"); this.last = el("button", null, "Last \u00bb");
  this.info = el("span", "status");
  var self = this;
  [this.first, this.prev, this.next, this.last].forEach(function (b) { b.type = "button"; });
  this.first.onclick = function () { self.show(0); };
  this.prev.onclick = function () { self.show(self.page - 1); };
  this.next.onclick = function () { self.show(self.page + 1); };
  this.last.onclick = function () { self.show(Infinity); };
  this.nav.append(this.first, this.prev, this.next, this.last, this.info);
  this.table = el("table", opts.className || "");
  if (opts.id) this.table.id = opts.id;
  var tr = el("tr");
  this.heads = head.map(function (name, column) {
    var th = el("th", null, name);
    if (opts.sort) { th.className = "sortable"; th.title = "sort"; th.onclick = function () { opts.sort(column, th); }; }
    tr.append(th);
    return th;
  });
  var thead = el("thead"); thead.append(tr);
  this.body = el("tbody"); this.foot = el("tfoot");
  this.table.append(thead, this.body, this.foot);
  var wrap = el("div", "scroll"); wrap.append(this.table);
  host.append(this.nav, wrap);
  if (opts.foot) opts.foot(this.foot);
}
Paged.prototype.show = function (page) {
  var total = this.opts.count(), pages = Math.max(1, Math.ceil(total / PAGE));
  this.page = Math.max(0, Math.min(pages - 1, page));
  var start = this.page * PAGE, end = Math.min(total, start + PAGE);
  var rows = document.createDocumentFragment();
  for (var i = start; i < end; i++) rows.append(this.opts.row(i));
  this.body.replaceChildren(rows);
  this.info.textContent = total ? "rows " + fmt(start + 1) + "\u2013" + fmt(end) + " of " + fmt(total) +
    " (page " + fmt(this.page + 1) + " of " + fmt(pages) + ")" : (this.opts.empty || "no rows");
  this.first.disabled = this.prev.disabled = this.page === 0;
  this.next.disabled = this.last.disabled = this.page >= pages - 1;
  this.first.hidden = this.prev.hidden = this.next.hidden = this.last.hidden = pages === 1;
};

function cellRow(cells, cls) {
  var tr = el("tr", cls);
  cells.forEach(function (c) { tr.append(el("td", null, c)); });
  return tr;
}

/* Worst first, as `--sort`: lowest REC, PRE, F; highest of the rest; undefined ("-") last. */
function sortKey(value, lowFirst) {
  if (value === "-") return Infinity;
  var v = parseFloat(value);
  return lowFirst ? v : -v;
}

function documentsTable(data, showDocument) {
  var docs = data.documents, order = docs.rows.map(function (_, i) { return i; });
  var head = ["DOCUMENT"].concat(docs.columns);
  var view = new Paged(byId("documents-view"), head, {
    id: "documents",
    count: function () { return order.length; },
    row: function (i) {
      var row = docs.rows[order[i]], tr = el("tr"), td = el("td"), b = el("button", "link", row[0]);
      b.type = "button"; b.title = "show this document's points in the drill-down";
      b.onclick = function () { showDocument(row[0]); };
      td.append(b); tr.append(td);
      for (var c = 1; c < row.length; c++) tr.append(el("td", null, row[c]));
      return tr;
    },
    foot: function (tfoot) { tfoot.append(cellRow(docs.total, "all")); },
    sort: function (column, th) {
      view.heads.forEach(function (h) { h.classList.remove("sorted"); });
      th.classList.add("sorted");
      if (column === 0) order.sort(function (a, b) { return a - b; });
      else {
        var lowFirst = docs.lowFirst.indexOf(docs.columns[column - 1]) >= 0;
        var keys = docs.rows.map(function (r) { return sortKey(r[column], lowFirst); });
        order.sort(function (a, b) { return (keys[a] - keys[b]) || (a - b); });
      }
      view.show(0);
    }
  });
  view.show(0);
}

function mappingTables(data) {
  var sets = data.setMapping, pairs = data.mapping, inst = data.inst;
  var name = function (i) { return i < 0 ? "-" : inst[i]; };
  new Paged(byId("set-mapping-view"), ["REFERENCE DOCUMENT", "HYPOTHESIS DOCUMENT"], {
    id: "set-mapping", className: "left", count: function () { return sets.length; },
    row: function (i) { return cellRow([sets[i][0] || "-", sets[i][1] || "-"]); }
  }).show(0);
  new Paged(byId("mapping-view"), ["REFERENCE INSTANCE", "HYPOTHESIS INSTANCE", "F"], {
    id: "mapping", className: "left", count: function () { return pairs.length / 3; },
    row: function (i) {
      var f = pairs[3 * i + 2];
      return cellRow([name(pairs[3 * i]), name(pairs[3 * i + 1]), f === null ? "" : f]);
    }
  }).show(0);
}

function fillCell(data, fill, inst, line) {
  var td = el("td");
  if (fill < 0) { td.textContent = "-"; return td; }
  td.append(el("code", null, data.fills[fill]), el("br"), el("small", null, data.inst[inst] + ", line " + line));
  return td;
}

/* Context: [n, ref words (n), hyp words (n), codes (n)]; code & 3: 0 match, 1 differ, 2 gap; 4 ref fill, 8 hyp fill. */
function contextTable(data, c) {
  var n = c[0], table = el("table", "ctx");
  [["REF", 1, 4], ["HYP", 1 + n, 8]].forEach(function (side) {
    var tr = el("tr");
    tr.append(el("td", "label", side[0]));
    for (var k = 0; k < n; k++) {
      var code = c[1 + 2 * n + k], classes = [];
      if (code & side[2]) classes.push("on");
      if ((code & 3) === 2) classes.push("gap"); else if ((code & 3) === 1) classes.push("sub");
      tr.append(el("td", classes.join(" "), data.words[c[side[1] + k]] || "***"));
    }
    table.append(tr);
  });
  return table;
}

/* A reason: its template with {0}, {1}... replaced by its fields (a template without fields as it is). */
function reasonText(data, i) {
  var p = data.pts, template = data.reasons[p.reason[i]], start = p.fieldStart[i];
  if (!data.reasonArity[p.reason[i]]) return template;
  return template.replace(/\{(\d+)\}/g, function (_, k) { return data.fields[p.field[start + Number(k)]]; });
}

function pointRow(data, i) {
  var p = data.pts, cat = data.categories[p.cat[i]], tr = el("tr");
  tr.append(el("td", cat, cat), el("td", null, data.kinds[p.kind[i]]), el("td", null, data.docs[p.doc[i]]));
  tr.append(fillCell(data, p.refFill[i], p.refInst[i], p.refLine[i]));
  tr.append(fillCell(data, p.hypFill[i], p.hypInst[i], p.hypLine[i]));
  var reason = el("td", "reason", reasonText(data, i));
  if (p.ctx && p.ctx[i] >= 0) reason.append(contextTable(data, data.contexts[p.ctx[i]]));
  tr.append(reason);
  return tr;
}

function drilldown(data) {
  var p = data.pts, views = [];
  var typeSelect = byId("filter-type"), catSelect = byId("filter-category"), docInput = byId("filter-document");
  var status = byId("filter-status");
  data.types.forEach(function (t, i) { var o = el("option", null, t); o.value = String(i); typeSelect.append(o); });
  data.categories.forEach(function (c, i) { var o = el("option", null, c); o.value = String(i); catSelect.append(o); });
  var docMask = null, wantType = -1, wantCat = -1;
  function readFilters() {
    wantType = typeSelect.value === "" ? -1 : +typeSelect.value;
    wantCat = catSelect.value === "" ? -1 : +catSelect.value;
    var text = docInput.value.trim();
    docMask = null;
    status.textContent = "";
    if (text) {
      docMask = new Uint8Array(data.docs.length);
      var exact = data.docs.indexOf(text), matched = 0;
      if (exact >= 0) { docMask[exact] = 1; matched = 1; } else {
        data.docs.forEach(function (d, k) { if (d.indexOf(text) >= 0) { docMask[k] = 1; matched++; } });
      }
      status.textContent = matched === 1 && exact >= 0 ? "" :
        fmt(matched) + (matched === 1 ? " document contains" : " documents contain") + " \u201c" + text + "\u201d";
    }
  }
  function select(slot) {
    var all = data.bySlot[slot];
    if (docMask === null && wantCat < 0) return all;
    var out = [];
    for (var k = 0; k < all.length; k++) {
      var i = all[k];
      if ((wantCat < 0 || p.cat[i] === wantCat) && (docMask === null || docMask[p.doc[i]])) out.push(i);
    }
    return out;
  }
  function refresh() {
    readFilters();
    document.querySelectorAll("#drilldown details").forEach(function (d) {
      d.hidden = wantType >= 0 && data.slotType[+d.getAttribute("data-slot")] !== wantType;
    });
    views.forEach(function (v) { if (v.built) { v.list = select(v.slot); v.paged.show(0); } });
  }
  function open(details) {
    var slot = +details.getAttribute("data-slot"), view = views[slot];
    if (!view.built) {
      var body = details.querySelector(".points-view");
      body.replaceChildren();
      view.built = true;
      view.list = select(slot);
      view.paged = new Paged(body, ["CATEGORY", "KIND", "DOCUMENT", "REFERENCE", "HYPOTHESIS", "REASON"], {
        className: "left points", empty: "no point of this slot matches the filters",
        count: function () { return view.list.length; },
        row: function (k) { return pointRow(data, view.list[k]); }
      });
      view.paged.show(0);
    }
  }
  document.querySelectorAll("#drilldown details").forEach(function (d) {
    var slot = +d.getAttribute("data-slot");
    views[slot] = { slot: slot, built: false };
    d.addEventListener("toggle", function () { if (d.open) open(d); });
    if (d.open) open(d);
  });
  typeSelect.onchange = catSelect.onchange = refresh;
  docInput.onchange = refresh;
  byId("filters").onsubmit = function (e) { e.preventDefault(); refresh(); };
  return function showDocument(docid) {
    docInput.value = docid;
    refresh();
    byId("drilldown-heading").scrollIntoView();
  };
}

readData().then(function (raw) {
  var data = decode(raw);
  var showDocument = drilldown(data);
  documentsTable(data, showDocument);
  mappingTables(data);
  byId("data-status").textContent = fmt(data.pts.n) + " points loaded.";
  document.body.setAttribute("data-ready", "1");
}).catch(function (error) {
  byId("data-status").textContent = "The report's data could not be read: " + error.message;
  document.body.setAttribute("data-ready", "error");
});
})();
