// prof's page: the profile html.c wrote into it, shown as a timeline, a
// flame graph, call trees, a function list and source lines. Everything is
// here: no request leaves the page (its Content-Security-Policy says so).
'use strict';
(function () {
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
	const e = document.createElement(tag);
	if (cls) e.className = cls;
	if (text !== undefined) e.textContent = text;
	return e;
};
// Text from the file, shown: control characters as \xNN.
const clean = (s) => s.replace(/[\x00-\x1f\x7f]/g,
	(c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
const pct = (v, t) => t ? (100 * v / t).toFixed(2) + '%' : '0.00%';

// --- the data ---------------------------------------------------------------

function base64(text) {
	text = text.replace(/\s+/g, '');
	if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
	const s = atob(text), b = new Uint8Array(s.length);
	for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
	return b;
}

async function inflate(bytes) {
	const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The blob: u32 length, JSON, then the columns in html.c's put_event() order.
function readBlob(b) {
	const jlen = b[0] | b[1] << 8 | b[2] << 16 | (b[3] << 24 >>> 0);
	const P = JSON.parse(new TextDecoder().decode(b.subarray(4, 4 + jlen)));
	let pos = 4 + jlen;
	const uv = () => {
		let v = 0, m = 1, c;
		do {
			c = b[pos++];
			v += (c & 127) * m;
			m *= 128;
		} while (c & 128);
		return v;
	};
	const col = (n, T) => {
		const a = new T(n);
		for (let i = 0; i < n; i++) a[i] = uv();
		return a;
	};
	P.strings = P.strings.map(clean);
	for (const l of P.libs || []) {
		l.name = clean(l.name);
		l.path = clean(l.path);
	}
	for (const L of P.listings || []) {
		if (L.why !== undefined) L.why = clean(L.why);
		for (const x of L.insn || []) x[1] = clean(x[1]);
		L.end = L.insn && L.insn.length ? L.off + L.insn[L.insn.length - 1][0] + 1 : 0;
	}
	for (const e of P.events || []) {
		e.fname = col(e.nframe, Uint32Array);
		e.fkind = col(e.nframe, Uint8Array);
		e.flib = col(e.nframe, Uint32Array);
		e.parent = col(e.nnode, Uint32Array);
		e.frame = col(e.nnode, Uint32Array);
		e.lfile = col(e.nline, Uint32Array);
		e.lline = col(e.nline, Uint32Array);
		e.ilib = col(e.ninsn, Uint32Array);
		e.ioff = col(e.ninsn, Float64Array);
		for (const t of e.threads) {
			t.stack = col(t.n, Uint32Array);
			t.time = new Float64Array(t.n);
			t.sorted = true;
			for (let i = 0, last = 0; i < t.n; i++) {
				const z = uv();
				if (z % 2 && i) t.sorted = false;
				last += z % 2 ? -(z + 1) / 2 : z / 2;
				t.time[i] = last;
			}
			t.weight = col(t.n, Float64Array);
			t.cpu = col(t.n, Uint32Array);
			t.line = col(t.n, Uint32Array);
			t.insn = col(t.n, Uint32Array);
			t.par = P.parallelism ? col(t.n, Uint32Array) : null;
		}
	}
	return P;
}

// --- what every view shares -------------------------------------------------

const K_KERNEL = 1, K_INLINED = 2, K_NONAME = 4;
let P, E;			// the profile, the event shown
const S = {			// the state the views show
	ev: 0, latency: false,
	threads: null,		// Set of "pid/tid" shown, or null: all
	range: null,		// [start, end] in seconds from the first sample, as --time takes
	tab: 'flame', func: -1,	// the selected function: a frame of E
	zoom: 0, icicle: false, search: null,
	tmode: 'top', tsort: 'total',
	keys: [], fsort: 'self',
};
let A = null;			// aggregate of the shown samples: see aggregate()

const name = (f) => P.strings[E.fname[f]];
const libName = (f) => E.flib[f] ? P.libs[E.flib[f] - 1].name : '';
const symText = (f) => (E.fkind[f] & K_KERNEL ? '[k] ' : '[.] ') + name(f);
const unit = () => E.ns ? 'ms' : 'samples';
const fmtW = (w) => E.ns ? (w / 1e6).toFixed(w < 1e7 ? 3 : 1) + ' ms' : String(w);
const thrKey = (t) => t.pid + '/' + t.tid;

function weightOf(t, i) {
	const w = t.weight[i];
	return S.latency && t.par && t.par[i] > 1 ? Math.floor(w / t.par[i]) : w;
}

// Each shown thread's samples in the selected range, as f(t, i): the
// threads of the event shown, or those of list THREADS in its order.
function eachSample(f, threads) {
	const r = S.range;
	for (const t of threads || E.threads) {
		if (S.threads && !S.threads.has(thrKey(t))) continue;
		const time = t.time;
		let i = 0, end = t.n;
		if (r && t.sorted) {
			// a thread's samples in time order (as the page has them): the range's by bisection
			i = firstAt(time, (v) => v / 1e9 >= r[0]);
			end = firstAt(time, (v) => v / 1e9 > r[1]);
		}
		for (; i < end; i++) {
			if (r && !t.sorted) {
				const s = time[i] / 1e9;
				if (s < r[0] || s > r[1]) continue;
			}
			f(t, i);
		}
	}
}

// The first index of sorted array A whose value meets test OK (true from there on), or its length.
function firstAt(a, ok) {
	let lo = 0, hi = a.length;
	while (lo < hi) {
		const m = (lo + hi) >> 1;
		if (ok(a[m])) hi = m;
		else lo = m + 1;
	}
	return lo;
}

// Per stack node: self weight and samples, and the weight of the stacks through it.
function aggregate() {
	const n = E.nnode;
	const self = new Float64Array(n), count = new Float64Array(n);
	let total = 0, samples = 0;
	eachSample((t, i) => {
		const w = weightOf(t, i), s = t.stack[i];
		self[s] += w;
		count[s]++;
		total += w;
		samples++;
	});
	const tot = Float64Array.from(self);
	for (let i = n - 1; i > 0; i--) tot[E.parent[i]] += tot[i];
	A = { self, count, tot, total, samples };
}

// Children of each node (a CSR table), in name order as flame graphs have them.
function childrenOf() {
	if (E.kids) return;
	const n = E.nnode, start = new Uint32Array(n + 1), list = new Uint32Array(n);
	for (let i = 1; i < n; i++) start[E.parent[i] + 1]++;
	for (let i = 0; i < n; i++) start[i + 1] += start[i];
	const at = start.slice(0, n);
	for (let i = 1; i < n; i++) list[at[E.parent[i]]++] = i;
	for (let i = 0; i < n; i++) {
		const sub = Array.from(list.subarray(start[i], start[i + 1]));
		sub.sort((a, b) => name(E.frame[a]) < name(E.frame[b]) ? -1 : name(E.frame[a]) > name(E.frame[b]) ? 1 : a - b);
		list.set(sub, start[i]);
	}
	E.kids = { start, list };
	const depth = new Uint32Array(n);
	for (let i = 1; i < n; i++) depth[i] = depth[E.parent[i]] + 1;
	E.depth = depth;
}

function kids(node) {
	const k = E.kids;
	return k.list.subarray(k.start[node], k.start[node + 1]);
}

// --- the tooltip --------------------------------------------------------------

function tip(ev, text) {
	const t = $('tip');
	if (!text) {
		t.hidden = true;
		return;
	}
	t.textContent = text;
	t.hidden = false;
	const x = Math.min(ev.clientX + 14, innerWidth - t.offsetWidth - 4);
	const y = ev.clientY + 16 + t.offsetHeight > innerHeight ? ev.clientY - t.offsetHeight - 8 : ev.clientY + 16;
	t.style.left = Math.max(0, x) + 'px';
	t.style.top = Math.max(0, y) + 'px';
}

function frameTip(node) {
	const f = E.frame[node];
	const lines = [name(f) + (E.fkind[f] & K_INLINED ? ' (inlined)' : ''),
		(libName(f) || '[unknown]') + (E.fkind[f] & K_KERNEL ? ' (kernel)' : ''),
		'total ' + pct(A.tot[node], A.total) + '  ' + fmtW(A.tot[node]),
		'self  ' + pct(A.self[node], A.total) + '  ' + fmtW(A.self[node])];
	return lines.join('\n');
}

// --- the flame graph ------------------------------------------------------------

const ROW = 18;

function hue(s) {
	let h = 0;
	for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
	return h;
}

function frameColor(f) {
	const k = E.fkind[f], h = hue(name(f));
	if (k & K_NONAME) return 'hsl(0,0%,' + (72 + h % 12) + '%)';
	if (k & K_KERNEL) return 'hsl(' + (20 + h % 20) + ',85%,' + (62 + h % 10) + '%)';
	if (k & K_INLINED) return 'hsl(' + (170 + h % 30) + ',50%,' + (70 + h % 10) + '%)';
	return 'hsl(' + (40 + h % 25) + ',90%,' + (58 + h % 12) + '%)';
}

// Of a tree whose parents come before their children: the nodes hit()
// matches, and those under one of them (a stack the search matches).
function searchUnder(n, parent, hit) {
	const h = new Uint8Array(n), under = new Uint8Array(n);
	for (let i = 1; i < n; i++) {
		h[i] = hit(i) ? 1 : 0;
		under[i] = h[i] | under[parent[i]];
	}
	return { hit: h, under };
}

// Which nodes the search matches: a frame's name, or a caller's.
function searchMatches() {
	if (!S.search) return null;
	const byFrame = new Int8Array(E.nframe).fill(-1);
	const m = searchUnder(E.nnode, E.parent, (i) => {
		const f = E.frame[i];
		if (byFrame[f] < 0) byFrame[f] = S.search.test(name(f)) ? 1 : 0;
		return byFrame[f];
	});
	let w = 0;
	for (let i = 1; i < E.nnode; i++) if (m.under[i]) w += A.self[i];
	return { hit: m.hit, share: w };
}

// A flame graph (icicle with S.icicle) in box, of a tree whose node 0 is
// the root: node zoom as wide as the box and its callers above it full
// width, each frame as wide as weight[] (none under half a pixel), children
// in kids() order. paint(r, node, w, caller) names and colours frame r;
// caller: one of zoom's callers, drawn dim.
function flameFrames(box, { zoom, parent, depth, kids, weight, paint }) {
	const W = Math.max(200, box.clientWidth - 2), scale = W / weight[zoom];
	const items = [[0, 0, W, 0]], chain = [];
	for (let at = zoom; at > 0; at = parent[at]) chain.unshift(at);
	for (const at of chain) items.push([at, 0, W, depth[at]]);
	let maxDepth = depth[zoom];
	const walk = (node, x) => {
		for (const c of kids(node)) {
			const w = weight[c] * scale;
			if (w >= 0.5) {
				items.push([c, x, w, depth[c]]);
				if (depth[c] > maxDepth) maxDepth = depth[c];
				walk(c, x);
			}
			x += w;
		}
	};
	walk(zoom, 0);
	const height = (maxDepth + 1) * ROW;
	const frag = document.createDocumentFragment();
	const sizer = el('div');
	sizer.style.height = height + 'px';
	sizer.style.width = '1px';
	frag.appendChild(sizer);
	for (const [node, x, w, d] of items) {
		const r = el('div', 'fr');
		r.style.left = x.toFixed(2) + 'px';
		r.style.width = w.toFixed(2) + 'px';
		if (w < 12) r.style.padding = '0';
		if (w < 3) r.style.borderRight = 'none';
		r.style.top = (S.icicle ? d * ROW : height - (d + 1) * ROW) + 'px';
		r.dataset.node = node;
		paint(r, node, w, node !== zoom && chain.includes(node));
		frag.appendChild(r);
	}
	box.appendChild(frag);
}

function drawFlame() {
	childrenOf();
	const box = $('flame');
	box.textContent = '';
	if (!A.total) {
		box.appendChild(el('div', 'empty', 'No samples in what is shown.'));
		return;
	}
	const zoom = A.tot[S.zoom] ? S.zoom : 0;
	const m = searchMatches();
	$('match').textContent = m ? 'Matched: ' + pct(m.share, A.total) : '';
	$('unzoom').disabled = !zoom;
	flameFrames(box, { zoom, parent: E.parent, depth: E.depth, kids, weight: A.tot,
		paint: (r, node, w, caller) => {
			if (node) {
				const f = E.frame[node];
				r.textContent = w > 28 ? name(f) : '';
				r.style.background = frameColor(f);
				if (m && m.hit[node]) r.classList.add('m');
				if (f === S.func) r.classList.add('selected');
				if (caller) r.classList.add('dim');
			} else {
				r.textContent = 'all ' + fmtW(A.total);
				r.style.background = '#ddd';
			}
		} });
	if (!S.icicle && !box.dataset.scrolled) {
		box.scrollTop = box.scrollHeight;
		box.dataset.scrolled = '1';
	}
}

function flameEvents() {
	const box = $('flame');
	box.addEventListener('click', (ev) => {
		const r = ev.target.closest('.fr');
		if (!r) return;
		const node = +r.dataset.node;
		S.zoom = node;
		if (node) S.func = E.frame[node];
		drawFlame();
	});
	box.addEventListener('mousemove', (ev) => {
		const r = ev.target.closest('.fr');
		tip(ev, r && +r.dataset.node ? frameTip(+r.dataset.node) : r ? 'all: ' + fmtW(A.total) : null);
	});
	box.addEventListener('mouseleave', () => tip(null, null));
	$('unzoom').addEventListener('click', () => {
		S.zoom = 0;
		drawFlame();
	});
	$('icicle').addEventListener('change', (ev) => {
		S.icicle = ev.target.checked;
		delete box.dataset.scrolled;
		drawFlame();
	});
	$('search').addEventListener('input', (ev) => {
		const v = ev.target.value;
		try {
			S.search = v ? new RegExp(v) : null;
			ev.target.setCustomValidity('');
		} catch (e) {
			ev.target.setCustomValidity('not a regular expression');
			return;
		}
		drawFlame();
	});
}

// --- virtual lists (call tree, functions) -----------------------------------------

const RH = 20;

// A scrolling list of count() rows drawn by row(i) as they come into view.
function vlist(box, count, row) {
	const spacer = box.querySelector('.spacer');
	const draw = () => {
		const n = count();
		spacer.style.height = n * RH + 'px';
		for (const r of Array.from(box.querySelectorAll('.row'))) r.remove();
		const first = Math.max(0, Math.floor(box.scrollTop / RH) - 5);
		const last = Math.min(n, first + Math.ceil(box.clientHeight / RH) + 10);
		for (let i = first; i < last; i++) {
			const r = row(i);
			r.style.top = i * RH + 'px';
			box.appendChild(r);
		}
	};
	box.onscroll = draw;
	draw();
	return draw;
}

function ensureVisible(box, i) {
	if (i * RH < box.scrollTop) box.scrollTop = i * RH;
	else if ((i + 1) * RH > box.scrollTop + box.clientHeight) box.scrollTop = (i + 1) * RH - box.clientHeight;
}

function header(box, cols, sorted, onSort) {
	box.textContent = '';
	for (const [key, label, cls] of cols) {
		const h = el('span', cls, label);
		if (key === sorted) h.classList.add('sorted');
		if (key) h.addEventListener('click', () => onSort(key));
		box.appendChild(h);
	}
}

// --- call trees ---------------------------------------------------------------------

// A tree of frames: top-down the stack table itself, bottom-up built from its leaves.
let T = null;

function buildTree() {
	childrenOf();
	if (S.tmode === 'top') {
		T = { frame: (x) => E.frame[x], tot: (x) => A.tot[x], self: (x) => A.self[x],
			kids: (x) => Array.from(kids(x)).filter((c) => A.tot[c] > 0), depth: (x) => E.depth[x] - 1,
			roots: () => Array.from(kids(0)).filter((c) => A.tot[c] > 0) };
	} else {
		// nodes: [frame, parent, total], by parent * nframe + frame
		const frame = [0], parent = [0], tot = [0], self = [0], depth = [0], map = new Map();
		const child = new Map();
		for (let s = 1; s < E.nnode; s++) {
			const w = A.self[s];
			if (!w) continue;
			let at = 0, first = true;
			for (let x = s; x; x = E.parent[x]) {
				const f = E.frame[x], k = at * E.nframe + f;
				let id = map.get(k);
				if (id === undefined) {
					id = frame.length;
					map.set(k, id);
					frame.push(f);
					parent.push(at);
					tot.push(0);
					self.push(0);
					depth.push(depth[at] + 1);
					if (!child.has(at)) child.set(at, []);
					child.get(at).push(id);
				}
				tot[id] += w;
				if (first) self[id] += w;
				first = false;
				at = id;
			}
		}
		T = { frame: (x) => frame[x], tot: (x) => tot[x], self: (x) => self[x],
			kids: (x) => child.get(x) || [], depth: (x) => depth[x] - 1,
			roots: () => child.get(0) || [] };
	}
}

// The call tree's rows: the nodes of src's tree opened, the current one.
// src: roots(), kids(x), depth(x) (0 for a root), order(list) (a sorted
// copy), and, where the tree picks functions, pick(x) and enter(x).
const tv = { open: new Set(), rows: [], cur: 0, draw: null, src: null };

function tvFlatten() {
	const src = tv.src, rows = [];
	const walk = (x) => {
		rows.push(x);
		if (tv.open.has(x)) for (const c of src.order(src.kids(x))) walk(c);
	};
	for (const r of src.order(src.roots())) walk(r);
	tv.rows = rows;
}

function tvMove(i) {
	const n = tv.rows.length;
	if (!n) return;
	tv.cur = Math.max(0, Math.min(n - 1, i));
	ensureVisible($('tree'), tv.cur);
	tv.draw();
}

function tvToggle(x, open, all) {
	const set = (y) => {
		if (open) tv.open.add(y);
		else tv.open.delete(y);
		if (all) for (const c of tv.src.kids(y)) set(c);
	};
	set(x);
	tvFlatten();
	tv.cur = tv.rows.indexOf(x);
	tv.draw();
}

// A second click on the same row soon after the first: a double click.
// The browser's dblclick never comes here: the first click redraws the
// rows, and the second lands on another element.
function doubleClick() {
	let last = { key: null, at: 0 };
	return (key, ev) => {
		const now = ev.timeStamp, dbl = key !== null && key === last.key && now - last.at < 500;
		last = dbl ? { key: null, at: 0 } : { key, at: now };
		return dbl;
	};
}

// Mouse and keys on the tree: click picks (the twisty opens), arrows move
// and open, * opens all under a row, Enter (or a double click) enters.
function tvEvents() {
	const box = $('tree');
	const pick = (x) => tv.src.pick && tv.src.pick(x);
	const dbl = doubleClick();
	box.addEventListener('click', (ev) => {
		const r = ev.target.closest('.row');
		if (!r) return;
		const i = +r.dataset.i, x = tv.rows[i];
		const twisty = ev.target.classList.contains('tw');
		tv.cur = i;
		pick(x);
		if (twisty) tvToggle(x, !tv.open.has(x), false);
		else tv.draw();
		box.focus();
		if (dbl(twisty ? null : x, ev) && tv.src.enter) tv.src.enter(x);
	});
	box.addEventListener('keydown', (ev) => {
		const x = tv.rows[tv.cur], src = tv.src;
		if (x === undefined) return;
		const k = ev.key;
		if (k === 'ArrowDown') tvMove(tv.cur + 1);
		else if (k === 'ArrowUp') tvMove(tv.cur - 1);
		else if (k === 'PageDown') tvMove(tv.cur + 20);
		else if (k === 'PageUp') tvMove(tv.cur - 20);
		else if (k === 'Home') tvMove(0);
		else if (k === 'End') tvMove(tv.rows.length - 1);
		else if (k === 'ArrowRight') {
			if (!tv.open.has(x) && src.kids(x).length) tvToggle(x, true, false);
			else tvMove(tv.cur + 1);
		} else if (k === 'ArrowLeft') {
			if (tv.open.has(x)) tvToggle(x, false, false);
			else {
				const d = src.depth(x);
				let i = tv.cur;
				while (i > 0 && src.depth(tv.rows[i]) >= d) i--;
				tvMove(i);
			}
		} else if (k === '*') tvToggle(x, true, true);
		else if (k === 'Enter' && src.enter) src.enter(x);
		else return;
		pick(tv.rows[tv.cur]);
		ev.preventDefault();
	});
}

function sortNodes(list) {
	const by = S.tsort;
	return list.slice().sort((a, b) => by === 'name' ? (name(T.frame(a)) < name(T.frame(b)) ? -1 : 1)
		: by === 'self' ? T.self(b) - T.self(a) || T.tot(b) - T.tot(a) : T.tot(b) - T.tot(a) || a - b);
}

// The profile's tree as tv shows it (T, rebuilt by buildTree()).
const profileTree = {
	roots: () => T.roots(), kids: (x) => T.kids(x), depth: (x) => T.depth(x), order: sortNodes,
	pick: (x) => { S.func = T.frame(x); },
	enter: (x) => {
		S.func = T.frame(x);
		showTab('source');
	},
};

// Open the heaviest path while it holds most of its parent's weight.
function openHeaviest() {
	tv.open.clear();
	let list = T.roots();
	for (let d = 0; d < 64 && list.length; d++) {
		const top = list.reduce((a, b) => (T.tot(b) > T.tot(a) ? b : a));
		tv.open.add(top);
		list = T.kids(top);
		if (list.length && T.tot(list.reduce((a, b) => (T.tot(b) > T.tot(a) ? b : a))) < 0.3 * A.total) break;
	}
}

function drawTree(reopen) {
	buildTree();
	tv.src = profileTree;
	if (reopen) {
		openHeaviest();
		tv.cur = 0;
	}
	tvFlatten();
	header($('tree-head'), [['total', 'Total', 'pct'], [null, unit(), 'num'], ['self', 'Self', 'pct'],
		[null, unit(), 'num'], ['name', 'Function', 'name']], S.tsort, (k) => {
		S.tsort = k;
		drawTree(false);
	});
	const box = $('tree');
	const rowOf = (i) => {
		const x = tv.rows[i], f = T.frame(x);
		const r = el('div', 'row' + (i === tv.cur ? ' cur' : ''));
		r.dataset.i = i;
		r.appendChild(el('span', 'pct', pct(T.tot(x), A.total)));
		r.appendChild(el('span', 'num', fmtW(T.tot(x))));
		r.appendChild(el('span', 'pct', pct(T.self(x), A.total)));
		r.appendChild(el('span', 'num', fmtW(T.self(x))));
		const n = el('span', 'name');
		n.style.paddingLeft = T.depth(x) * 14 + 'px';
		const has = T.kids(x).length > 0;
		n.appendChild(el('span', 'tw', has ? (tv.open.has(x) ? '\u25BE' : '\u25B8') : ''));
		n.appendChild(el('span', E.fkind[f] & K_KERNEL ? 'k' : E.fkind[f] & K_NONAME ? 'u' : '', name(f)));
		if (E.fkind[f] & K_INLINED) n.appendChild(el('span', 'tag', 'inlined'));
		n.appendChild(el('span', 'lib', libName(f)));
		r.appendChild(n);
		return r;
	};
	tv.draw = vlist(box, () => tv.rows.length, rowOf);
}

function treeEvents() {
	tvEvents();
	for (const r of document.querySelectorAll('input[name=tmode]'))
		r.addEventListener('change', (ev) => {
			S.tmode = ev.target.value;
			drawTree(true);
		});
}

// --- the function list --------------------------------------------------------------

const KEYS = ['comm', 'pid', 'tid', 'dso', 'sym', 'srcline', 'cpu', 'parallelism'];

// The function an inlined frame at node x was inlined into, or null.
function inlinedIn(x) {
	if (!(E.fkind[E.frame[x]] & K_INLINED)) return null;
	for (let at = E.parent[x]; at; at = E.parent[at])
		if (!(E.fkind[E.frame[at]] & K_INLINED)) return name(E.frame[at]);
	return null;
}

function keyText(k, t, node, i) {
	const f = E.frame[node];
	switch (k) {
	case 'comm': return P.strings[t.comm];
	case 'pid': return String(t.pid);
	case 'tid': return String(t.tid);
	case 'dso': return libName(f) || '[unknown]';
	case 'sym': {
		const inl = inlinedIn(node);
		return symText(f) + (inl ? ' (inlined in ' + inl + ')' : E.fkind[f] & K_INLINED ? ' (inlined)' : '');
	}
	case 'srcline': {
		const l = t.line[i];
		if (!l) return name(f) + ' [no line]';
		const file = P.strings[E.lfile[l]];
		return file.slice(file.lastIndexOf('/') + 1) + ':' + E.lline[l];
	}
	case 'cpu': return String(t.cpu[i]);
	case 'parallelism': return t.par ? String(t.par[i]) : '1';
	}
	return '';
}

let F = null;	// the function list: rows of {texts, self, total, samples, func}

// Texts as small numbers: id(text) the same number for the same text.
function interner() {
	const ids = new Map();
	let n = 0;
	return (s) => {
		let v = ids.get(s);
		if (v === undefined) ids.set(s, v = n++);
		return v;
	};
}

// Pairs of such numbers as one number, again small (a Map per first
// number: small integer keys, which V8's Maps hash fastest).
function pairer() {
	const by = [];
	let n = 0;
	return (a, b) => {
		const m = by[a] || (by[a] = new Map());
		let v = m.get(b);
		if (v === undefined) m.set(b, v = n++);
		return v;
	};
}

// What the nodes decide of a row, for keys NKEYS (dso, sym) of the event
// shown, made once: per node the id of its keys' texts, and whether no
// caller above it has the same (the one a stack's --children total counts).
function nodeKeys(nkeys) {
	const sig = nkeys.join(',');
	E.nkeys = E.nkeys || new Map();
	let nk = E.nkeys.get(sig);
	if (nk) return nk;
	const n = E.nnode, id = new Uint32Array(n), first = new Uint8Array(n), intern = interner();
	for (let x = 0; x < n; x++) id[x] = intern(nkeys.map((k) => keyText(k, null, x, 0)).join('\u0000'));
	if (nkeys.includes('sym')) {
		// depth first, counting each id on the way down
		childrenOf();
		const on = new Uint32Array(n), todo = [0];
		while (todo.length) {
			const v = todo.pop();
			if (v < 0) {
				on[id[~v]]--;
				continue;
			}
			if (v) {
				first[v] = on[id[v]] === 0 ? 1 : 0;
				on[id[v]]++;
				todo.push(~v);
			}
			for (const c of kids(v)) todo.push(c);
		}
	}
	E.nkeys.set(sig, nk = { id, first });
	return nk;
}

// The function list's rows: a row per distinct texts of the keys. The keys
// a node decides (dso, sym) are numbered once per node; those of a thread
// (comm, pid, tid) once per thread; those of a sample (srcline, cpu,
// parallelism) per sample, through caches. With no key of a thread or a
// sample the rows come from the aggregate's per-node weights alone; with
// keys of a thread, each group of threads of the same texts has its
// stacks summed and their callers walked once.
function buildFuncs() {
	const keys = S.keys.length ? S.keys : ['sym'];
	const nkeys = keys.filter((k) => k === 'dso' || k === 'sym');
	const tkeys = keys.filter((k) => k === 'comm' || k === 'pid' || k === 'tid');
	const skeys = keys.filter((k) => k === 'srcline' || k === 'cpu' || k === 'parallelism');
	const children = keys.includes('sym') && !skeys.length;
	const NK = nodeKeys(nkeys), pair = pairer(), rows = [];
	const row = (g, node, t, i) => {
		let r = rows[g];
		if (!r) rows[g] = r = { texts: keys.map((k) => keyText(k, t, node, i)), self: 0, total: 0, samples: 0,
			func: E.frame[node] };
		return r;
	};
	const tintern = interner();
	const threadId = (t) => tintern(tkeys.map((k) => keyText(k, t, 0, 0)).join('\u0000'));
	if (skeys.length) {
		// per sample: each key of a sample through a cache of its own
		const sintern = interner(), lineId = new Int32Array(E.nline).fill(-1), noLine = new Map();
		const num = { cpu: new Map(), parallelism: new Map() };
		const sid = (k, t, node, i) => {
			if (k === 'srcline') {
				const l = t.line[i];
				if (l) return lineId[l] >= 0 ? lineId[l] : (lineId[l] = sintern(keyText(k, t, node, i)));
				const f = E.frame[node];
				let v = noLine.get(f);
				if (v === undefined) noLine.set(f, v = sintern(keyText(k, t, node, i)));
				return v;
			}
			const x = k === 'cpu' ? t.cpu[i] : t.par ? t.par[i] : 1;
			let v = num[k].get(x);
			if (v === undefined) num[k].set(x, v = sintern(keyText(k, t, node, i)));
			return v;
		};
		let cur = null, g = 0;
		eachSample((t, i) => {
			if (t !== cur) {
				cur = t;
				g = threadId(t);
			}
			const node = t.stack[i];
			let k = pair(g, NK.id[node]);
			for (const s of skeys) k = pair(k, sid(s, t, node, i));
			const r = row(k, node, t, i);
			r.self += weightOf(t, i);
			r.samples++;
		});
	} else if (!tkeys.length) {
		// no key of a thread: the per-node sums of aggregate()
		if (!A) aggregate();
		for (let x = 0; x < E.nnode; x++) {
			if (A.count[x]) {
				const r = row(NK.id[x], x, null, 0);
				r.self += A.self[x];
				r.samples += A.count[x];
			}
			if (children && NK.first[x] && A.tot[x]) row(NK.id[x], x, null, 0).total += A.tot[x];
		}
	} else {
		// per group of threads of the same texts (a command's threads, with
		// comm) its stacks, then the callers they pass through once each
		const n = E.nnode, w = new Float64Array(n), c = new Float64Array(n), tw = new Float64Array(n);
		const mark = new Uint32Array(n), gid = new Map();
		for (const t of E.threads) gid.set(t, threadId(t));
		const order = E.threads.slice().sort((a, b) => gid.get(a) - gid.get(b));
		let cur = null, last = null, g = -1, list = [], stamp = 0;
		const flush = () => {
			if (!cur) return;
			for (const s of list) {
				const r = row(pair(g, NK.id[s]), s, cur, 0);
				r.self += w[s];
				r.samples += c[s];
			}
			if (children) {
				stamp++;
				const up = [];
				for (const s of list)
					for (let at = s; at && mark[at] !== stamp; at = E.parent[at]) {
						mark[at] = stamp;
						tw[at] = 0;
						up.push(at);
					}
				for (const s of list) if (s) tw[s] += w[s];
				for (const x of Uint32Array.from(up).sort().reverse()) {
					if (E.parent[x]) tw[E.parent[x]] += tw[x];
					if (NK.first[x] && tw[x]) row(pair(g, NK.id[x]), x, cur, 0).total += tw[x];
				}
			}
			for (const s of list) w[s] = c[s] = 0;
			list = [];
		};
		eachSample((t, i) => {
			if (t !== last && gid.get(last = t) !== g) {
				flush();
				cur = t;
				g = gid.get(t);
			}
			const s = t.stack[i];
			if (!c[s]) list.push(s);
			w[s] += weightOf(t, i);
			c[s]++;
		}, order);
		flush();
	}
	F = { keys, children, rows: rows.filter((r) => r && (r.self > 0 || r.total > 0)), open: new Set(), view: [] };
	sortFuncs();
}

// Whether row r is a file's unnamed code, "?? (file)": one row, its addresses one level down.
const unnamedRow = (r) => (E.fkind[r.func] & K_NONAME) && E.flib[r.func] && F.keys.includes('sym');

// The addresses of unnamed row r: the instructions its own samples hit,
// each "file+0xOFFSET" (as prof report --sort sym,srcline names them), heaviest first.
function addressesOf(r) {
	const by = new Map();
	eachSample((t, i) => {
		const node = t.stack[i];
		if (E.frame[node] !== r.func || !t.insn[i]) return;
		if (F.keys.some((k, j) => keyText(k, t, node, i) !== r.texts[j])) return;
		const k = t.insn[i];
		let a = by.get(k);
		if (!a) by.set(k, a = { insn: k, self: 0, samples: 0 });
		a.self += weightOf(t, i);
		a.samples++;
	});
	return Array.from(by.values()).sort((a, b) => b.self - a.self || E.ioff[a.insn] - E.ioff[b.insn]);
}

// An instruction's address as prof report --sort srcline names it: "file+0xOFFSET".
const addrText = (k) => (E.ilib[k] ? P.libs[E.ilib[k] - 1].name : '') + '+0x' + E.ioff[k].toString(16);

// The rows shown: each row, and under an open unnamed row its addresses.
function funcsView() {
	F.view = [];
	for (const r of F.rows) {
		F.view.push({ row: r });
		if (F.open.has(r))
			for (const a of addressesOf(r)) F.view.push({ row: r, addr: a });
	}
}

function funcsToggle(i, open) {
	const v = F.view[i];
	if (!v || v.addr || !unnamedRow(v.row) || open === F.open.has(v.row)) return false;
	if (open) F.open.add(v.row);
	else F.open.delete(v.row);
	funcsView();
	fstate.draw();
	return true;
}

function sortFuncs() {
	const by = S.fsort;
	const i = F.keys.indexOf(by);
	F.rows.sort((a, b) => i >= 0 ? (a.texts[i] < b.texts[i] ? -1 : a.texts[i] > b.texts[i] ? 1 : b.self - a.self)
		: by === 'total' ? b.total - a.total || b.self - a.self
		: by === 'samples' ? b.samples - a.samples : b.self - a.self || b.total - a.total);
}

const fstate = { cur: 0, draw: null };

function drawFuncs(rebuild) {
	if (rebuild || !F) buildFuncs();
	const cols = [];
	if (F.children) cols.push(['total', 'Children', 'pct']);
	cols.push(['self', 'Self', 'pct'], [null, unit(), 'num'], ['samples', 'Samples', 'num']);
	for (const k of F.keys) cols.push([k, k === 'sym' ? 'Symbol' : k, k === 'sym' ? 'name' : 'key k-' + k]);
	header($('funcs-head'), cols, S.fsort, (k) => {
		S.fsort = k;
		sortFuncs();
		drawFuncs(false);
	});
	funcsView();
	const rowOf = (i) => {
		const v = F.view[i], x = v.row;
		const r = el('div', 'row' + (i === fstate.cur ? ' cur' : '') + (v.addr ? ' addr' : ''));
		r.dataset.i = i;
		if (v.addr) {
			// an address of a "??" row: its own samples, under the row's symbol
			const a = v.addr;
			if (F.children) r.appendChild(el('span', 'pct', ''));
			r.appendChild(el('span', 'pct', pct(a.self, A.total)));
			r.appendChild(el('span', 'num', fmtW(a.self)));
			r.appendChild(el('span', 'num', String(a.samples)));
			F.keys.forEach((k) => {
				const c = el('span', k === 'sym' ? 'name' : 'key k-' + k, '');
				if (k === 'sym') {
					c.style.paddingLeft = '28px';
					c.textContent = addrText(a.insn);
				}
				r.appendChild(c);
			});
			return r;
		}
		if (F.children) r.appendChild(el('span', 'pct', pct(x.total, A.total)));
		r.appendChild(el('span', 'pct', pct(x.self, A.total)));
		r.appendChild(el('span', 'num', fmtW(x.self)));
		r.appendChild(el('span', 'num', String(x.samples)));
		F.keys.forEach((k, j) => {
			const c = el('span', k === 'sym' ? 'name' : 'key k-' + k, '');
			if (k === 'sym' && unnamedRow(x))
				c.appendChild(el('span', 'tw', x.self > 0 ? (F.open.has(x) ? '\u25BE' : '\u25B8') : ''));
			c.appendChild(document.createTextNode(x.texts[j]));
			r.appendChild(c);
		});
		return r;
	};
	fstate.draw = vlist($('funcs'), () => F.view.length, rowOf);
}

function funcsEvents() {
	const bar = $('keys');
	bar.appendChild(el('span', '', 'Sort keys (as prof report -s):'));
	for (const k of KEYS) {
		if (k === 'parallelism' && !P.parallelism) continue;
		const l = el('label');
		const c = el('input');
		c.type = 'checkbox';
		c.value = k;
		c.checked = S.keys.includes(k);
		c.addEventListener('change', () => {
			S.keys = KEYS.filter((x) => bar.querySelector('input[value=' + x + ']') &&
				bar.querySelector('input[value=' + x + ']').checked);
			fstate.cur = 0;
			drawFuncs(true);
		});
		l.appendChild(c);
		l.appendChild(document.createTextNode(' ' + k));
		bar.appendChild(l);
	}
	const box = $('funcs');
	const pick = (i) => {
		fstate.cur = Math.max(0, Math.min(F.view.length - 1, i));
		if (F.view[fstate.cur]) S.func = F.view[fstate.cur].row.func;
		ensureVisible(box, fstate.cur);
		fstate.draw();
	};
	const dbl = doubleClick();
	box.addEventListener('click', (ev) => {
		const r = ev.target.closest('.row');
		if (!r) return;
		const i = +r.dataset.i;
		pick(i);
		box.focus();
		// the twisty of a "??" row opens it to its addresses
		if (ev.target.classList.contains('tw')) {
			funcsToggle(i, !F.open.has(F.view[i].row));
			return;
		}
		if (dbl(F.view[i] && F.view[i].row.func, ev)) showTab('source');
	});
	box.addEventListener('keydown', (ev) => {
		const k = ev.key;
		if (k === 'ArrowDown') pick(fstate.cur + 1);
		else if (k === 'ArrowUp') pick(fstate.cur - 1);
		else if (k === 'ArrowRight') funcsToggle(fstate.cur, true);
		else if (k === 'ArrowLeft') {
			// on an address, back to its row; on an open row, close it
			const v = F.view[fstate.cur];
			if (v && v.addr) pick(F.view.findIndex((w) => w.row === v.row && !w.addr));
			else funcsToggle(fstate.cur, false);
		}
		else if (k === 'PageDown') pick(fstate.cur + 20);
		else if (k === 'PageUp') pick(fstate.cur - 20);
		else if (k === 'Enter') showTab('source');
		else return;
		ev.preventDefault();
	});
}

// --- the source view ---------------------------------------------------------------

// The weight of the shown samples whose leaf is frame f, by the instruction they hit.
function insnWeights(f) {
	const by = new Map();
	eachSample((t, i) => {
		if (E.frame[t.stack[i]] !== f || !t.insn[i]) return;
		by.set(t.insn[i], (by.get(t.insn[i]) || 0) + weightOf(t, i));
	});
	return by;
}

// The function's code, from the listing its samples' instructions are in, each
// instruction with its share of what is shown, under the source line it is from.
function drawDis(f) {
	const dis = $('src-dis'), why = $('src-dis-why');
	dis.textContent = '';
	why.textContent = '';
	const byInsn = insnWeights(f);
	if (!byInsn.size) {
		why.textContent = E.fkind[f] & K_KERNEL ? 'Kernel code: no disassembly.' : '';
		return;
	}
	// the listing of the function's library holding the most of its weight
	const lib = E.flib[f];
	let best = null, bestW = -1;
	for (const L of P.listings || []) {
		if (L.lib !== lib) continue;
		let w = 0;
		for (const [k, v] of byInsn)
			if (E.ilib[k] === lib && E.ioff[k] >= L.off && E.ioff[k] < L.end) w += v;
		if (L.why === undefined && w > bestW) { best = L; bestW = w; }
		if (L.why !== undefined && P.strings[L.name] === name(f) && !best) why.textContent = 'No disassembly: ' + L.why;
	}
	if (!best || bestW <= 0) {
		if (!why.textContent)
			why.textContent = 'No disassembly: the page holds the code of the hottest functions only (prof annotate shows any).';
		return;
	}
	const at = new Map();
	for (const [k, v] of byInsn)
		if (E.ilib[k] === lib) at.set(E.ioff[k] - best.off, (at.get(E.ioff[k] - best.off) || 0) + v);
	const total = Array.from(byInsn.values()).reduce((a, b) => a + b, 0);
	let max = 0;
	for (const v of at.values()) max = Math.max(max, v);
	why.textContent = 'Disassembly of ' + P.strings[best.name] + ': ' + pct(bestW, total) + ' of its samples here';
	let lastLine = '';
	for (const [d, txt, file, line] of best.insn) {
		const here = file ? P.strings[file - 1].split('/').pop() + ':' + line : '';
		if (here && here !== lastLine) {
			const h = el('span', 'dl', here);
			dis.appendChild(h);
			lastLine = here;
		}
		const w = at.get(d) || 0;
		const row = el('span', 'di');
		row.dataset.off = String(best.off + d);
		row.appendChild(el('span', 'sp', w ? pct(w, A.total) : ''));
		row.appendChild(el('span', 'ln', (best.vaddr + d).toString(16)));
		row.appendChild(document.createTextNode(txt));
		if (w) {
			row.style.background = 'rgba(var(--hot),' + (0.08 + 0.6 * w / max).toFixed(3) + ')';
			if (w === max) row.classList.add('hotinsn');
		}
		dis.appendChild(row);
	}
}

// A file's unnamed code ("?? (file)"): no symbol says where its functions
// begin, so no listing; the addresses its samples hit, heaviest first.
function drawAddresses(f) {
	const rows = Array.from(insnWeights(f).entries()).sort((a, b) => b[1] - a[1] || E.ioff[a[0]] - E.ioff[b[0]]);
	$('src-why').textContent = rows.length ? libName(f) + ' has no symbol for this code: its ' + rows.length +
		(rows.length === 1 ? ' address' : ' addresses') + ' by their samples (prof report --sort sym,srcline lists them too)'
		: 'No sample has this code as its leaf in what is shown.';
	$('src-dis-why').textContent = 'No disassembly: no symbol says where this code\'s functions begin.';
	if (rows.length) $('src-lines').appendChild(sharesTable('Address', rows, addrText));
}

// A table of [key, weight] rows, the heaviest first: Self, the weight, and
// the column named col, each key's text(key).
function sharesTable(col, rows, text) {
	const tab = el('table');
	const h = el('tr');
	for (const [c, cls] of [['Self', 'r'], [unit(), 'r'], [col, '']]) h.appendChild(el('th', cls, c));
	tab.appendChild(h);
	for (const [k, w] of rows) {
		const tr = el('tr', 'hl');
		tr.appendChild(el('td', 'r', pct(w, A.total)));
		tr.appendChild(el('td', 'r', fmtW(w)));
		tr.appendChild(el('td', '', text(k)));
		tab.appendChild(tr);
	}
	return tab;
}

function drawSource() {
	const title = $('src-title'), lines = $('src-lines'), why = $('src-why'), text = $('src-text');
	lines.textContent = '';
	why.textContent = '';
	text.textContent = '';
	$('src-dis').textContent = '';
	$('src-dis-why').textContent = '';
	const f = S.func;
	if (f < 0 || f >= E.nframe) {
		title.textContent = 'Select a function in another view to see its source lines.';
		return;
	}
	// the samples whose leaf is the function, by their line
	const byLine = new Map();
	let self = 0;
	eachSample((t, i) => {
		if (E.frame[t.stack[i]] !== f) return;
		const w = weightOf(t, i), l = t.line[i];
		self += w;
		byLine.set(l, (byLine.get(l) || 0) + w);
	});
	title.textContent = '';
	title.appendChild(el('b', '', name(f)));
	title.appendChild(el('span', 'lib', libName(f)));
	title.appendChild(el('span', '', 'self ' + pct(self, A.total) + ' (' + fmtW(self) + ')'));
	if ((E.fkind[f] & K_NONAME) && E.flib[f]) {
		drawAddresses(f);
		return;
	}
	drawDis(f);
	const hot = Array.from(byLine.entries()).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
	if (!hot.length) {
		why.textContent = 'No sample has this function as its leaf in what is shown.';
		return;
	}
	lines.appendChild(sharesTable('Line', hot,
		(l) => l ? P.strings[E.lfile[l]] + ':' + E.lline[l] : '(no line information)'));
	// the hottest line's file, around the function's sampled lines in it
	const top = hot.find(([l]) => l);
	if (!top) return;
	const file = E.lfile[top[0]];
	const src = P.sources.find((s) => s.file === file);
	if (!src || src.text === undefined) {
		why.textContent = 'Source of ' + P.strings[file] + ' is not in the page: ' + (src ? src.why : 'unknown');
		return;
	}
	const all = src.text.split('\n');
	const mine = hot.filter(([l]) => l && E.lfile[l] === file);
	const perLine = new Map(mine.map(([l, w]) => [E.lline[l], w]));
	const nums = mine.map(([l]) => E.lline[l]);
	const from = Math.max(1, Math.min(...nums) - 8), to = Math.min(all.length, Math.max(...nums) + 8, from + 3000);
	why.textContent = P.strings[file];
	const max = top[1];
	for (let n = from; n <= to; n++) {
		const row = el('span', 'sl');
		const w = perLine.get(n) || 0;
		row.dataset.line = n;
		row.appendChild(el('span', 'sp', w ? pct(w, A.total) : ''));
		row.appendChild(el('span', 'ln', String(n)));
		row.appendChild(document.createTextNode(clean((all[n - 1] || '').replace(/\t/g, '        '))));
		if (w) row.style.background = 'rgba(var(--hot),' + (0.08 + 0.6 * w / max).toFixed(3) + ')';
		if (n === E.lline[top[0]]) row.classList.add('hotline');
		text.appendChild(row);
	}
	const hl = text.querySelector('.hotline');
	if (hl) text.scrollTop = hl.offsetTop - text.offsetTop - text.clientHeight / 3;
}

// --- the timeline -----------------------------------------------------------------

const TL = { label: 170, track: 15, tracks: [], t0: 0, t1: 1, width: 0, max: 300 };
const COLORS = { user: '#e9a400', kernel: '#e8612c', other: '#9a9a9a', blocked: '#2a6bff', preempted: '#d6336c' };

// One track per thread, grouped by process, the busiest first.
function layoutTracks() {
	const by = new Map();
	let t0 = Infinity, t1 = -Infinity;
	P.events.forEach((e, ei) => {
		for (const t of e.threads) {
			const k = thrKey(t);
			let x = by.get(k);
			if (!x) by.set(k, x = { pid: t.pid, tid: t.tid, comm: P.strings[t.comm], weight: 0, ev: [], last: -Infinity });
			// a thread that exec'd is two threads of the data, one track, named
			// as it was last: after the exec (cc1, not the gcc it was forked as)
			(x.ev[ei] = x.ev[ei] || []).push(t);
			const last = t.n ? t.time[t.n - 1] : -Infinity;
			if (last >= x.last) {
				x.last = last;
				x.comm = P.strings[t.comm];
			}
			if (ei === 0 || !x.weight) x.weight += t.total;
			for (let i = 0; i < t.n; i++) {
				const a = t.time[i], b = e.interval ? a + t.weight[i] : a;
				if (a < t0) t0 = a;
				if (b > t1) t1 = b;
			}
		}
	});
	const procs = new Map();
	for (const x of by.values()) {
		let p = procs.get(x.pid);
		if (!p) procs.set(x.pid, p = { weight: 0, list: [] });
		p.weight += x.weight;
		p.list.push(x);
	}
	const order = Array.from(procs.values()).sort((a, b) => b.weight - a.weight);
	TL.tracks = [];
	for (const p of order)
		for (const x of p.list.sort((a, b) => (a.tid === a.pid ? -1 : 0) - (b.tid === b.pid ? -1 : 0) || b.weight - a.weight))
			TL.tracks.push(x);
	TL.all = TL.tracks.length;
	if (TL.tracks.length > TL.max) TL.tracks = TL.tracks.slice(0, TL.max);
	if (t0 > t1) t0 = t1 = 0;
	TL.t0 = t0;
	TL.t1 = t1 > t0 ? t1 : t0 + 1;
	$('tl-more').textContent = TL.all > TL.max ? 'and ' + (TL.all - TL.max) + ' more threads with less weight: ' +
		'their samples are in every view, not drawn here' : '';
}

const xOf = (ns) => TL.label + (ns - TL.t0) / (TL.t1 - TL.t0) * TL.width;
const nsOf = (x) => TL.t0 + (x - TL.label) / TL.width * (TL.t1 - TL.t0);

function leafClass(e, node) {
	const k = e.fkind[e.frame[node]];
	return k & K_NONAME ? 'other' : k & K_KERNEL ? 'kernel' : 'user';
}

function drawTimeline() {
	const cv = $('tl-canvas'), box = $('tl-scroll');
	const W = box.clientWidth || 800, dpr = devicePixelRatio || 1;
	TL.width = W - TL.label - 8;
	const H = 18 + TL.tracks.length * TL.track;
	cv.width = W * dpr;
	cv.height = H * dpr;
	cv.style.width = W + 'px';
	cv.style.height = H + 'px';
	const g = cv.getContext('2d');
	g.scale(dpr, dpr);
	g.font = '11px system-ui, sans-serif';
	g.fillStyle = '#fff';
	g.fillRect(0, 0, W, H);
	// the axis: seconds from the first sample
	g.fillStyle = '#6b6b70';
	g.strokeStyle = '#eee';
	const span = (TL.t1 - TL.t0) / 1e9, step = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600]
		.find((s) => span / s <= 10) || 7200;
	for (let s = Math.ceil(TL.t0 / 1e9 / step) * step; s <= TL.t1 / 1e9; s += step) {
		const x = xOf(s * 1e9);
		if (x + 50 < W) g.fillText(s.toFixed(step < 1 ? 3 : 0) + ' s', x + 2, 11);
		g.beginPath();
		g.moveTo(x + 0.5, 14);
		g.lineTo(x + 0.5, H);
		g.stroke();
	}
	TL.tracks.forEach((x, k) => {
		const y = 18 + k * TL.track;
		const shown = !S.threads || S.threads.has(x.pid + '/' + x.tid);
		g.fillStyle = shown ? '#1d1d1f' : '#aaa';
		g.fillText((x.tid === x.pid ? '' : '  ') + x.comm + ' ' + x.tid, 4, y + 11, TL.label - 8);
		g.fillStyle = k % 2 ? '#fafafa' : '#f3f3f5';
		g.fillRect(TL.label, y, TL.width, TL.track - 1);
		P.events.forEach((e, ei) => (x.ev[ei] || []).forEach((t) => {
			if (!e.interval && ei !== S.ev) return;
			if (e.interval) {
				g.fillStyle = e.name === 'preempted' ? COLORS.preempted : e.name === 'off-cpu' ? COLORS.blocked
					: '#7a8';
				const y0 = e.name === 'off-cpu' || e.name === 'preempted' ? y + 3 : y + 1;
				for (let i = 0; i < t.n; i++) {
					const a = xOf(t.time[i]), b = xOf(t.time[i] + t.weight[i]);
					g.fillRect(a, y0, Math.max(1, b - a), TL.track - 1 - (y0 - y) * 2 + 1);
				}
				return;
			}
			// on-CPU samples: per pixel column, the class of most of them
			// (made once for a width: a range or a thread picked only redraws)
			const key = TL.width + ' ' + TL.t0 + ' ' + TL.t1;
			if (!t.cols || t.cols.key !== key) {
				const cols = new Map();
				for (let i = 0; i < t.n; i++) {
					const px = Math.floor(xOf(t.time[i]));
					const c = leafClass(e, t.stack[i]);
					let m = cols.get(px);
					if (!m) cols.set(px, m = { user: 0, kernel: 0, other: 0 });
					m[c]++;
				}
				t.cols = { key, list: Array.from(cols, ([px, m]) =>
					[px, COLORS[m.user >= m.kernel && m.user >= m.other ? 'user' : m.kernel >= m.other ? 'kernel' : 'other']]) };
			}
			for (const [px, c] of t.cols.list) {
				g.fillStyle = c;
				g.fillRect(px, y + 1, 1, TL.track - 3);
			}
		}));
	});
	drawSelection();
}

function drawSelection() {
	const sel = $('tl-sel');
	if (!S.range) {
		sel.hidden = true;
		$('tl-clear').hidden = true;
		return;
	}
	const a = xOf(S.range[0] * 1e9), b = xOf(S.range[1] * 1e9);
	sel.style.left = a + 'px';
	sel.style.width = Math.max(1, b - a) + 'px';
	sel.hidden = false;
	$('tl-clear').hidden = false;
}

function rangeText() {
	const bar = $('tl-range');
	bar.textContent = '';
	if (!S.range) {
		bar.textContent = 'Drag across the timeline to select a time range; click a thread\'s name to show only it.';
		return;
	}
	const [a, b] = S.range;
	bar.appendChild(document.createTextNode('Selected ' + a.toFixed(6) + ' s to ' + b.toFixed(6) + ' s (' +
		((b - a) * 1000).toFixed(3) + ' ms), as '));
	bar.appendChild(el('code', '', 'prof report --time ' + a.toFixed(6) + ',' + b.toFixed(6)));
}

// The sample of track x nearest to pixel px, as the stack it had.
function hoverText(x, px) {
	const lines = [];
	const at = nsOf(px);
	P.events.forEach((e, ei) => (x.ev[ei] || []).forEach((t) => {
		if (!e.interval && ei !== S.ev) return;
		if (e.interval) {
			for (let i = 0; i < t.n; i++)
				if (t.time[i] <= at && at <= t.time[i] + t.weight[i]) {
					lines.push(e.name + ' ' + (t.time[i] / 1e9).toFixed(6) + ' s for ' + (t.weight[i] / 1e6).toFixed(3) + ' ms');
					lines.push(...stackNamesOf(e, t.stack[i]).map((s) => '  ' + s));
					return;
				}
			return;
		}
		let lo = 0, hi = t.n;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (t.time[mid] < at) lo = mid + 1;
			else hi = mid;
		}
		let best = -1;
		for (const i of [lo - 1, lo]) if (i >= 0 && i < t.n && (best < 0 || Math.abs(t.time[i] - at) < Math.abs(t.time[best] - at))) best = i;
		if (best < 0 || Math.abs(xOf(t.time[best]) - px) > 4) return;
		lines.push(e.name + ' sample at ' + (t.time[best] / 1e9).toFixed(6) + ' s, CPU ' + t.cpu[best]);
		lines.push(...stackNamesOf(e, t.stack[best]).map((s) => '  ' + s));
	}));
	return lines.length ? x.comm + ' ' + x.pid + '/' + x.tid + '\n' + lines.join('\n') : x.comm + ' ' + x.pid + '/' + x.tid;
}

function stackNamesOf(e, node) {
	const out = [];
	for (let at = node; at && out.length < 24; at = e.parent[at]) out.push(P.strings[e.fname[e.frame[at]]]);
	return out;
}

function timelineEvents() {
	const cv = $('tl-canvas');
	let drag = null;
	const pos = (ev) => {
		const r = cv.getBoundingClientRect();
		return [ev.clientX - r.left, ev.clientY - r.top];
	};
	const trackAt = (y) => TL.tracks[Math.floor((y - 18) / TL.track)];
	cv.addEventListener('mousedown', (ev) => {
		const [x, y] = pos(ev);
		if (x < TL.label) {
			const t = trackAt(y);
			if (!t || y < 18) return;
			const k = t.pid + '/' + t.tid;
			if (ev.shiftKey || ev.ctrlKey) {
				S.threads = S.threads || new Set();
				if (S.threads.has(k)) S.threads.delete(k);
				else S.threads.add(k);
				if (!S.threads.size) S.threads = null;
			} else {
				S.threads = S.threads && S.threads.size === 1 && S.threads.has(k) ? null : new Set([k]);
			}
			update();
			return;
		}
		drag = { x0: Math.max(TL.label, x) };
		ev.preventDefault();
	});
	addEventListener('mousemove', (ev) => {
		const [x, y] = pos(ev);
		if (drag) {
			const a = Math.min(drag.x0, x), b = Math.max(drag.x0, x);
			const sel = $('tl-sel');
			sel.hidden = false;
			sel.style.left = Math.max(TL.label, a) + 'px';
			sel.style.width = Math.max(1, Math.min(TL.label + TL.width, b) - Math.max(TL.label, a)) + 'px';
			return;
		}
		if (ev.target !== cv) return;
		const t = y >= 18 ? trackAt(y) : null;
		tip(ev, t ? (x >= TL.label ? hoverText(t, x) : t.comm + ' ' + t.pid + '/' + t.tid + ': click to show only this thread') : null);
	});
	cv.addEventListener('mouseleave', () => tip(null, null));
	addEventListener('mouseup', (ev) => {
		if (!drag) return;
		const [x] = pos(ev);
		const a = Math.max(TL.label, Math.min(drag.x0, x)), b = Math.min(TL.label + TL.width, Math.max(drag.x0, x));
		drag = null;
		if (b - a < 3) {
			drawSelection();
			return;
		}
		// seconds as --time takes them, to the microsecond
		const s = (px) => Math.round(nsOf(px) / 1e3) / 1e6;
		S.range = [s(a), s(b)];
		update();
	});
	$('tl-clear').addEventListener('click', () => {
		S.range = null;
		update();
	});
}

// --- the page -------------------------------------------------------------------

function showTab(tab) {
	S.tab = tab;
	for (const b of document.querySelectorAll('#tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
	for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== 'p-' + tab;
	drawTab();
}

function drawTab() {
	if (S.tab === 'flame') drawFlame();
	else if (S.tab === 'tree') drawTree(!T);
	else if (S.tab === 'funcs') drawFuncs(!F);
	else drawSource();
}

// Something the views show changed: aggregate again and redraw.
function update() {
	aggregate();
	T = null;
	F = null;
	$('totals').textContent = A.samples + ' samples, ' + fmtW(A.total) + (S.threads ? ' in ' + S.threads.size + ' thread(s)' : '') +
		(S.range ? ' in the selection' : '');
	rangeText();
	drawTimeline();
	drawTab();
}

function selectEvent(i) {
	S.ev = i;
	E = P.events[i];
	S.zoom = 0;
	S.func = -1;
	update();
}

function facts() {
	const f = [];
	if (P.cmdline) f.push(P.cmdline);
	if (P.host) f.push(P.host + (P.release ? ' (Linux ' + P.release + (P.arch ? ' ' + P.arch : '') + ')' : ''));
	f.push(P.samples + ' samples');
	if (TL.t1 > TL.t0) f.push(((TL.t1 - TL.t0) / 1e9).toFixed(3) + ' s');
	if (P.lost) f.push(P.lost + ' records lost');
	if (P.thinned) f.push('1 in ' + P.thinned + ' samples kept, each weighing those it stands for (too many for the page)');
	if (P.latency) f.push('weighed by latency');
	$('facts').textContent = clean(f.join(' \u00B7 '));
}

// --- a diff: prof diff --format html ------------------------------------------------

// The merged tree of both sides (node 0 the root) and the flat entries,
// with their values in BASE and NEW and whether the change is beyond noise.
const CHANGE = { '1': 'grew', '-1': 'shrank', '0': 'noise' };
let D = null;

function diffColor(i) {
	const c = D.tree.change[i];
	if (!c) return '#e1e1e1';
	const k = Math.round(215 - 185 * Math.min(1, Math.abs(D.tree.delta[i]) / D.maxDelta));
	return c > 0 ? 'rgb(255,' + k + ',' + k + ')' : 'rgb(' + k + ',' + k + ',255)';
}

function diffTip(i) {
	const t = D.tree;
	return P.strings[t.name[i]] + '\nBASE ' + t.pct0[i].toFixed(2) + '%  NEW ' + t.pct1[i].toFixed(2) + '%  ' +
		(t.delta[i] >= 0 ? '+' : '') + t.delta[i].toFixed(2) + ' points: ' +
		(t.change[i] ? CHANGE[t.change[i]] : 'within noise');
}

// One side's flame graph: side 0 sized by BASE, 1 by NEW.
function drawDiffFlame(side) {
	const box = $('flame-' + side), t = D.tree, v = side ? t.v1 : t.v0;
	box.textContent = '';
	const zoom = v[S.zoom] ? S.zoom : 0;
	if (!v[0]) {
		box.appendChild(el('div', 'empty', 'No samples on this side.'));
		return;
	}
	const m = S.search ? searchUnder(t.n, t.parent, (i) => S.search.test(P.strings[t.name[i]])) : null;
	flameFrames(box, { zoom, parent: t.parent, depth: D.depth, kids: (x) => D.kids[x], weight: v,
		paint: (r, node, w, caller) => {
			r.classList.add(node ? CHANGE[t.change[node]] : 'noise');
			r.style.background = node ? diffColor(node) : '#ddd';
			r.textContent = node ? (w > 28 ? P.strings[t.name[node]] : '') : 'all: ' + (side ? 'NEW' : 'BASE');
			if (node && m && m.hit[node]) r.classList.add('m');
			if (caller) r.classList.add('dim');
		} });
	if (m) {
		// the share of the side's samples whose stack the expression matches
		let match = 0;
		for (let i = 1; i < t.n; i++) {
			let self = v[i];
			for (const c of D.kids[i]) self -= v[c];
			if (self > 0 && m.under[i]) match += self;
		}
		$('match-' + side).textContent = 'Matched: ' + pct(match, v[0]);
	} else {
		$('match-' + side).textContent = '';
	}
	$('unzoom').disabled = !S.zoom;
}

function drawDiffFuncs() {
	const rows = D.rows;
	const by = S.fsort, k = { base: 0, new: 1 };
	rows.sort((a, b) => by === 'name' ? (P.strings[a.name] < P.strings[b.name] ? -1 : 1)
		: by in k ? b.pct[k[by]] - a.pct[k[by]] : Math.abs(b.delta) - Math.abs(a.delta) || b.pct[1] - a.pct[1]);
	header($('funcs-head'), [['base', 'BASE', 'pct'], ['new', 'NEW', 'pct'], ['delta', 'Delta', 'pct'],
		[null, 'Change', 'key'], ['name', P.keys.includes('sym') || !P.keys.length ? 'Symbol' : P.keys.join(' / '), 'name']],
	S.fsort, (key) => {
		S.fsort = key;
		drawDiffFuncs();
	});
	const rowOf = (i) => {
		const x = rows[i], r = el('div', 'row ' + CHANGE[x.change] + (i === fstate.cur ? ' cur' : ''));
		r.dataset.i = i;
		r.appendChild(el('span', 'pct', x.pct[0].toFixed(2) + '%'));
		r.appendChild(el('span', 'pct', x.pct[1].toFixed(2) + '%'));
		r.appendChild(el('span', 'pct', (x.delta >= 0 ? '+' : '') + x.delta.toFixed(2)));
		r.appendChild(el('span', 'key chg', CHANGE[x.change] + (x.trips ? ' (gate)' : '')));
		r.appendChild(el('span', 'name', P.strings[x.name] + (x.in !== undefined ? ' (inlined in ' + P.strings[x.in] + ')' : '')));
		return r;
	};
	fstate.draw = vlist($('funcs'), () => rows.length, rowOf);
}

// The merged tree, top-down, as the call tree: both sides' totals and the change.
// The merged tree as tv shows it: the larger side first.
const mergedTree = {
	roots: () => D.kids[0], kids: (x) => D.kids[x], depth: (x) => D.depth[x] - 1,
	order: (list) => list.slice().sort((a, b) => Math.max(D.tree.v0[b], D.tree.v1[b]) - Math.max(D.tree.v0[a], D.tree.v1[a])),
};

function drawDiffTree() {
	const t = D.tree;
	tv.src = mergedTree;
	tvFlatten();
	header($('tree-head'), [[null, 'BASE', 'pct'], [null, 'NEW', 'pct'], [null, 'Delta', 'pct'], [null, 'Change', 'key'],
		[null, 'Function', 'name']], null, () => {});
	const rowOf = (i) => {
		const x = tv.rows[i];
		const r = el('div', 'row ' + CHANGE[t.change[x]] + (i === tv.cur ? ' cur' : ''));
		r.dataset.i = i;
		r.appendChild(el('span', 'pct', t.pct0[x].toFixed(2) + '%'));
		r.appendChild(el('span', 'pct', t.pct1[x].toFixed(2) + '%'));
		r.appendChild(el('span', 'pct', (t.delta[x] >= 0 ? '+' : '') + t.delta[x].toFixed(2)));
		r.appendChild(el('span', 'key chg', CHANGE[t.change[x]]));
		const n = el('span', 'name');
		n.style.paddingLeft = (D.depth[x] - 1) * 14 + 'px';
		n.appendChild(el('span', 'tw', D.kids[x].length ? (tv.open.has(x) ? '\u25BE' : '\u25B8') : ''));
		n.appendChild(el('span', '', P.strings[t.name[x]]));
		r.appendChild(n);
		return r;
	};
	tv.draw = vlist($('tree'), () => tv.rows.length, rowOf);
}

function diffVerdict() {
	const box = $('verdict');
	box.hidden = false;
	const changed = D.rows.filter((r) => r.change);
	if (P.gate) {
		const over = D.rows.filter((r) => r.trips);
		box.className = over.length ? 'fail' : 'pass';
		box.textContent = over.length
			? 'Gate failed: ' + over.map((r) => P.strings[r.name] + ' grew by ' + r.delta.toFixed(2) + ' points (' +
				r.pct[0].toFixed(2) + '% -> ' + r.pct[1].toFixed(2) + '%)').join('; ') + ', above --fail-above ' + P.gate.above
			: 'Gate passed: nothing grew significantly by more than ' + P.gate.above + ' points';
	} else {
		box.className = changed.length ? 'changed' : 'pass';
		box.textContent = changed.length
			? changed.length + ' of ' + D.rows.length + ' changed beyond sampling noise: ' + changed.slice(0, 5)
				.map((r) => P.strings[r.name] + ' ' + CHANGE[r.change] + ' ' + (r.delta >= 0 ? '+' : '') + r.delta.toFixed(2)).join(', ') +
				(changed.length > 5 ? ', ...' : '')
			: 'Nothing changed beyond sampling noise (at level ' + P.level + ')';
	}
}

function diffMain() {
	const t = P.tree || { parent: [-1], name: [0], kind: [0], v0: [0], v1: [0], pct0: [0], pct1: [0], delta: [0], change: [0] };
	t.n = t.parent.length;
	const kids = Array.from({ length: t.n }, () => []), depth = new Uint32Array(t.n);
	for (let i = 1; i < t.n; i++) {
		kids[t.parent[i]].push(i);
		depth[i] = depth[t.parent[i]] + 1;
	}
	let maxDelta = 0.01;
	for (let i = 1; i < t.n; i++) if (t.change[i]) maxDelta = Math.max(maxDelta, Math.abs(t.delta[i]));
	D = { tree: t, kids, depth, maxDelta, rows: P.entries };
	const side = (x) => x.inputs.join(', ');
	$('input').textContent = clean('diff: BASE ' + side(P.base) + ' -> NEW ' + side(P.new));
	document.title = 'prof diff: ' + clean(side(P.base) + ' -> ' + side(P.new));
	$('facts').textContent = clean([P.event, 'BASE ' + P.base.samples + ' samples', 'NEW ' + P.new.samples + ' samples',
		(P.abs ? 'absolute time' : 'shares') + ', level ' + P.level + (P.dispersion > 1 ? ', dispersion ' + P.dispersion.toFixed(2) : ''),
		'red: grew, blue: shrank, grey: within noise'].join(' \u00B7 '));
	$('controls').style.display = 'none';
	$('timeline').hidden = true;
	document.querySelector('#tabs button[data-tab=source]').hidden = true;
	$('p-flame').classList.add('diff');
	$('flame').hidden = true;
	for (const s of [0, 1]) {
		const h = el('div', 'side-title');
		h.appendChild(el('b', '', s ? 'NEW, sized by NEW' : 'BASE, sized by BASE'));
		h.appendChild(el('span', 'match', ''));
		h.lastChild.id = 'match-' + s;
		const f = el('div', 'flame2');
		f.id = 'flame-' + s;
		f.tabIndex = 0;
		$('p-flame').appendChild(h);
		$('p-flame').appendChild(f);
		f.addEventListener('click', (ev) => {
			const r = ev.target.closest('.fr');
			if (!r) return;
			S.zoom = +r.dataset.node;
			drawDiffFlame(0);
			drawDiffFlame(1);
		});
		f.addEventListener('mousemove', (ev) => {
			const r = ev.target.closest('.fr');
			tip(ev, r ? (+r.dataset.node ? diffTip(+r.dataset.node) : 'all') : null);
		});
		f.addEventListener('mouseleave', () => tip(null, null));
	}
	$('match').hidden = true;
	$('unzoom').addEventListener('click', () => {
		S.zoom = 0;
		drawDiffFlame(0);
		drawDiffFlame(1);
	});
	$('icicle').addEventListener('change', (ev) => {
		S.icicle = ev.target.checked;
		drawDiffFlame(0);
		drawDiffFlame(1);
	});
	$('search').addEventListener('input', (ev) => {
		try {
			S.search = ev.target.value ? new RegExp(ev.target.value) : null;
		} catch (e) {
			return;
		}
		drawDiffFlame(0);
		drawDiffFlame(1);
	});
	$('keys').textContent = 'Entries by ' + (P.keys.join(', ') || 'sym') + ', as prof diff compares them; ' +
		'the biggest change first.';
	S.fsort = 'delta';
	tvEvents();
	const draw = () => {
		if (S.tab === 'flame') {
			drawDiffFlame(0);
			drawDiffFlame(1);
		} else if (S.tab === 'tree') drawDiffTree();
		else drawDiffFuncs();
	};
	for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => {
		S.tab = b.dataset.tab;
		for (const x of document.querySelectorAll('#tabs button')) x.setAttribute('aria-selected', String(x === b));
		for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== 'p-' + S.tab;
		draw();
	});
	addEventListener('resize', draw);
	diffVerdict();
	draw();
	window.profPage = {
		ready: true, diff: true, state: S, profile: P,
		frameName: (node) => P.strings[t.name[node]],
		depth: (node) => depth[node],
	};
}

async function main() {
	const bytes = await inflate(base64($('prof-data').textContent));
	P = readBlob(bytes);
	if (P.diff) {
		diffMain();
		return;
	}
	$('input').textContent = clean(P.input || '');
	document.title = 'prof: ' + clean(P.input || '');
	S.keys = P.keys.filter((k) => KEYS.includes(k));
	S.fsort = P.children ? 'total' : 'self';
	S.icicle = !!P.inverted;
	$('icicle').checked = S.icicle;
	if (!P.events.length) {
		facts();
		document.querySelector('main').appendChild(el('div', 'empty', 'This profile has no samples.'));
		$('timeline').hidden = true;
		for (const p of document.querySelectorAll('.panel')) p.hidden = true;
		window.profPage = { ready: true, empty: true };
		return;
	}
	const sel = $('event');
	P.events.forEach((e, i) => {
		const total = e.threads.reduce((s, t) => s + t.total, 0);
		sel.appendChild(el('option', '', e.name + ' (' + (e.ns ? (total / 1e6).toFixed(1) + ' ms' : total) + ')'));
		sel.lastChild.value = i;
	});
	sel.addEventListener('change', () => selectEvent(+sel.value));
	if (P.parallelism) {
		$('latency-box').hidden = false;
		$('latency').addEventListener('change', (ev) => {
			S.latency = ev.target.checked;
			update();
		});
	}
	for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));
	layoutTracks();
	facts();
	flameEvents();
	treeEvents();
	funcsEvents();
	timelineEvents();
	let resize = 0;
	addEventListener('resize', () => {
		clearTimeout(resize);
		resize = setTimeout(() => {
			drawTimeline();
			drawTab();
		}, 100);
	});
	E = P.events[0];
	selectEvent(0);
	// what the tests read; the page does not use it
	window.profPage = {
		ready: true, state: S, profile: P,
		totals: () => ({ total: A.total, samples: A.samples }),
		event: () => E.name,
		xOf: (seconds) => xOf(seconds * 1e9),
		trackY: (tid) => {
			const k = TL.tracks.findIndex((t) => t.tid === tid);
			return k < 0 ? -1 : 18 + k * TL.track;
		},
		secondsAt: (x) => nsOf(x) / 1e9,
		tracks: () => TL.tracks.map((t) => ({ pid: t.pid, tid: t.tid, comm: t.comm })),
		depth: (node) => E.depth[node],
		frameName: (node) => name(E.frame[node]),
		funcRow: (fn) => (F ? F.view.findIndex((v) => !v.addr && v.row.func >= 0 && name(v.row.func) === fn) : -1),
		// the function list as shown: a row's texts, an address row's address and self samples
		funcList: () => (F ? F.view.map((v) => v.addr ? { addr: addrText(v.addr.insn), samples: v.addr.samples }
			: { texts: v.row.texts, samples: v.row.samples, open: F.open.has(v.row) }) : []),
	};
}

main().catch((e) => {
	const box = $('error');
	box.textContent = 'prof could not show this profile: ' + e;
	box.hidden = false;
	window.profPage = { ready: true, error: String(e) };
	throw e;
});
})();
