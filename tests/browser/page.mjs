// SPDX-License-Identifier: GPL-2.0-or-later
// Opens a page of prof report --format html in headless Chromium, from
// file://, and drives it as a user would (clicks, drags, keys, typing),
// printing what the page then shows, for tests/run-report-html.sh to
// compare with prof report and prof script.
//
//   node page.mjs BROWSER FILE.html OUTDIR [STEP...]
//   node page.mjs BROWSER http://127.0.0.1:PORT/TOKEN/ OUTDIR [STEP...]   (prof view's URL)
//
// Steps, in order:
//   funcs[:N]          the function list: "funcrows N", then "func SELF% CHILDREN% SAMPLES KEY..."
//                      for each of its first N rows (2000)
//   open:NAME          NAME's row ("?? (file)") opened by a click on its twisty: "addr ADDRESS SELF%
//                      SAMPLES" per address row under it
//   keys:K1,K2         the function list's sort keys set by their checkboxes
//   flame              the flame graph: "frame DEPTH WIDTH/ROOT NAME" per frame drawn
//   zoom:NAME          click the first frame called NAME, then "zoom ROOT-WIDTH NAME-WIDTH"
//   search:RE          type RE into the search box: "match TEXT"
//   callers:NAME       bottom-up tree, NAME's row opened by keyboard: "caller TOTAL% NAME" per row under it
//   range:A,B          drag across the timeline from A to B seconds: "range TEXT" and "totals SAMPLES TOTAL"
//   track:TID          the timeline's track of TID read from the canvas: "blocked START END" (seconds)
//                      per run of the blocked colour, "oncpu N" pixel columns drawn on the CPU
//   thread:TID         click the thread's name: "totals SAMPLES TOTAL"
//   event:NAME         choose the event
//   latency            tick "weigh by latency": "totals SAMPLES TOTAL"
//   source:NAME        select NAME in the function list, Enter: "src LINE SELF%" per hot line,
//                      "srcfirst LINE" the highlighted line of the text, "srcwhy TEXT";
//                      its disassembly: "dis OFF SHARE VADDR TEXT [hot]" per instruction,
//                      "disline FILE:LINE" per source line above them, "diswhy TEXT"
//   diff               a diff page: "verdict CLASS TEXT", "drow CHANGE BASE% NEW% DELTA CHANGE NAME"
//                      per function row, "dframe base|new DEPTH WIDTH/ROOT CHANGE NAME" per frame
//   dblclick:VIEW:NAME double-click NAME's row in the function list (VIEW funcs) or the
//                      call tree (VIEW tree) with the mouse: "tab TAB" of the tab then shown,
//                      "srctitle TEXT" of the source view's title
//   tracks             the timeline's tracks: "trackname PID TID COMM" each
//   text:SELECTOR      "text CONTENT" of the element
//   shot:FILE.png      a screenshot
// Always: "ready MS" (load to interactive), "size BYTES", and "error TEXT" for a
// page error, a console error or warning, or any request off file:// or data:.
// Exit 0 when the page could be driven; 2 when not.
import fs from 'node:fs';
import path from 'node:path';
import { drive, watch } from './chromium.mjs';

const [browser, file, outdir, ...steps] = process.argv.slice(2);
const out = [];
const say = (...f) => out.push(f.map((s) => String(s).replace(/[\t\n]/g, ' ')).join('\t'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await drive(browser, outdir, out, say, async (b) => {
	const p = await b.newPage();
	// FILE may be the URL prof view serves the page at: that one request is the page's
	const url = /^https?:/.test(file) ? file : 'file://' + path.resolve(file);
	watch(p, say, { warnings: true, allow: url });
	await p.setViewport({ width: 1400, height: 900 });
	if (!/^https?:/.test(file)) say('size', fs.statSync(file).size);
	const t0 = Date.now();
	await p.goto(url, { waitUntil: 'load' });
	await p.waitForFunction(() => window.profPage && window.profPage.ready, { timeout: 60000 });
	say('ready', Date.now() - t0);
	const err = await p.evaluate(() => window.profPage.error || '');
	if (err) say('error', 'page: ' + err);
	const tab = async (t) => {
		await p.click(`#tabs button[data-tab=${t}]`);
		await sleep(50);
	};
	const rows = (sel) => p.evaluate((s) => Array.from(document.querySelectorAll(s + ' .row'))
		.sort((a, b) => a.offsetTop - b.offsetTop)
		.map((r) => Array.from(r.children).map((c) => c.classList.contains('name')
			? c.children[1].textContent : c.textContent)), sel);
	for (const step of steps) {
		const [cmd, ...rest] = step.split(':');
		const arg = rest.join(':');
		if (cmd === 'funcs') {
			await tab('funcs');
			// every row: scroll the list through
			const seen = new Map();
			const h = await p.evaluate(() => document.querySelector('#funcs .spacer').offsetHeight);
			say('funcrows', Math.round(h / 20));
			for (let y = 0; y <= Math.min(h, 20 * (+arg || 2000)); y += 400) {
				await p.evaluate((y) => { const f = document.getElementById('funcs'); f.scrollTop = y; f.onscroll(); }, y);
				for (const r of await p.evaluate(() => Array.from(document.querySelectorAll('#funcs .row'))
					.map((r) => [r.dataset.i, Array.from(r.children).map((c) => c.textContent)])))
					seen.set(+r[0], r[1]);
			}
			const head = await p.evaluate(() => Array.from(document.querySelectorAll('#funcs-head span')).map((s) => s.textContent));
			const ci = head.indexOf('Children'), si = head.indexOf('Self'), ni = head.indexOf('Samples');
			// (a "??" row's twisty is not its text)
			for (const [, r] of Array.from(seen).sort((a, b) => a[0] - b[0]))
				say('func', r[si], ci >= 0 ? r[ci] : '-', r[ni], ...r.slice(ni + 1).map((t) => t.replace(/^[\u25B8\u25BE]/, '')));
		} else if (cmd === 'open') {
			// a "??" row of the function list opened by a click on its twisty:
			// "addr ADDRESS SELF% SAMPLES" per row under it, as the list shows them
			await tab('funcs');
			const i = await p.evaluate((n) => window.profPage.funcRow(n), arg);
			if (i < 0) {
				say('error', 'no function ' + arg);
				continue;
			}
			await p.evaluate((i) => { const f = document.getElementById('funcs'); f.scrollTop = i * 20; f.onscroll(); }, i);
			const tw = await p.$(`#funcs .row[data-i="${i}"] .tw`);
			if (!tw) {
				say('error', 'no twisty on ' + arg);
				continue;
			}
			await tw.click();
			await sleep(50);
			const head = await p.evaluate(() => Array.from(document.querySelectorAll('#funcs-head span')).map((s) => s.textContent));
			const si = head.indexOf('Self'), ni = head.indexOf('Samples'), yi = head.indexOf('Symbol');
			for (const r of await p.evaluate((i) => Array.from(document.querySelectorAll('#funcs .row'))
				.filter((r) => +r.dataset.i > i).sort((a, b) => a.offsetTop - b.offsetTop)
				.map((r) => [r.classList.contains('addr'), Array.from(r.children).map((c) => c.textContent)]), i)) {
				if (!r[0]) break;
				say('addr', r[1][yi], r[1][si], r[1][ni]);
			}
		} else if (cmd === 'keys') {
			await tab('funcs');
			const want = arg.split(',');
			for (const k of ['comm', 'pid', 'tid', 'dso', 'sym', 'srcline', 'cpu', 'parallelism']) {
				const on = await p.evaluate((k) => { const c = document.querySelector(`#keys input[value=${k}]`); return c ? c.checked : null; }, k);
				if (on !== null && on !== want.includes(k)) await p.click(`#keys input[value=${k}]`);
			}
		} else if (cmd === 'flame') {
			await tab('flame');
			const fr = await p.evaluate(() => {
				const all = Array.from(document.querySelectorAll('#flame .fr'));
				const root = all.find((r) => r.dataset.node === '0').getBoundingClientRect().width;
				return all.filter((r) => r.dataset.node !== '0').map((r) => [
					window.profPage.depth(+r.dataset.node), r.getBoundingClientRect().width / root,
					window.profPage.frameName(+r.dataset.node)]);
			});
			for (const f of fr) say('frame', f[0], f[1].toFixed(4), f[2]);
		} else if (cmd === 'zoom') {
			await tab('flame');
			const box = await p.evaluate((n) => {
				const r = Array.from(document.querySelectorAll('#flame .fr'))
					.find((r) => r.dataset.node !== '0' && window.profPage.frameName(+r.dataset.node) === n);
				if (!r) return null;
				r.scrollIntoView({ block: 'center' });
				const b = r.getBoundingClientRect();
				return [b.left + Math.min(5, b.width / 2), b.top + 5];
			}, arg);
			if (!box) {
				say('error', 'no frame ' + arg);
				continue;
			}
			await p.mouse.click(box[0], box[1]);
			await sleep(50);
			const w = await p.evaluate((n) => {
				const all = Array.from(document.querySelectorAll('#flame .fr'));
				const root = all.find((r) => r.dataset.node === '0').getBoundingClientRect().width;
				const me = all.find((r) => r.dataset.node !== '0' && r.classList.contains('selected') &&
					window.profPage.frameName(+r.dataset.node) === n && !r.classList.contains('dim'));
				return [root, me ? me.getBoundingClientRect().width : -1];
			}, arg);
			say('zoom', w[0].toFixed(1), w[1].toFixed(1), arg);
		} else if (cmd === 'search') {
			await tab('flame');
			await p.click('#search', { clickCount: 3 });
			await p.type('#search', arg);
			await sleep(100);
			say('match', await p.evaluate(() => document.getElementById('match').textContent));
			say('marked', await p.evaluate(() => document.querySelectorAll('#flame .fr.m').length));
		} else if (cmd === 'callers') {
			await tab('tree');
			await p.click('input[name=tmode][value=bottom]');
			await sleep(50);
			const all = await rows('#tree');
			const i = all.findIndex((r) => r[4] === arg);
			if (i < 0) {
				say('error', 'no bottom-up row ' + arg);
				continue;
			}
			await p.focus('#tree');
			await p.keyboard.press('Home');
			for (let k = 0; k < i; k++) await p.keyboard.press('ArrowDown');
			await p.keyboard.press('*');
			await sleep(50);
			const after = await rows('#tree');
			const depth = await p.evaluate(() => Array.from(document.querySelectorAll('#tree .row'))
				.sort((a, b) => a.offsetTop - b.offsetTop)
				.map((r) => parseFloat(r.querySelector('.name').style.paddingLeft) / 14));
			for (let k = i + 1; k < after.length && depth[k] > depth[i]; k++)
				say('caller', depth[k] - depth[i], after[k][0], after[k][4]);
		} else if (cmd === 'tracks') {
			for (const t of await p.evaluate(() => window.profPage.tracks()))
				say('trackname', t.pid, t.tid, t.comm);
		} else if (cmd === 'dblclick') {
			const [view, name] = [rest[0], rest.slice(1).join(':')];
			await tab(view);
			await sleep(50);
			// the row whose name is NAME (a tree's: after its twisty, before its object; a list's after [.])
			const all = await p.evaluate((v) => Array.from(document.querySelectorAll('#' + v + ' .row'))
				.sort((a, b) => a.offsetTop - b.offsetTop)
				.map((r) => { const n = r.querySelector('.name'); return !n ? '' : n.children.length > 1 ? n.children[1].textContent : n.textContent.replace(/^\[.\] /, ''); }), view);
			const i = all.findIndex((r) => r === name);
			if (i < 0) {
				say('error', 'no row ' + name + ' in ' + view);
				continue;
			}
			const box = await p.evaluate((v, i) => {
				const r = Array.from(document.querySelectorAll('#' + v + ' .row'))
					.sort((a, b) => a.offsetTop - b.offsetTop)[i].querySelector('.name') ||
					Array.from(document.querySelectorAll('#' + v + ' .row'))
						.sort((a, b) => a.offsetTop - b.offsetTop)[i];
				const b = r.getBoundingClientRect();
				return [b.left + Math.min(60, b.width / 2), b.top + b.height / 2];
			}, view, i);
			// a user's double click: two clicks at one place, the second counted 2
			await p.mouse.click(box[0], box[1], { count: 2, delay: 20 });
			await sleep(100);
			say('tab', await p.evaluate(() => document.querySelector('#tabs button[aria-selected=true]').dataset.tab));
			say('srctitle', await p.evaluate(() => document.getElementById('src-title').textContent));
		} else if (cmd === 'range') {
			const [a, z] = arg.split(',').map(Number);
			const geo = await p.evaluate((a, z) => {
				const c = document.getElementById('tl-canvas').getBoundingClientRect();
				return [c.left + window.profPage.xOf(a), c.left + window.profPage.xOf(z), c.top + 25];
			}, a, z);
			await p.mouse.move(geo[0], geo[2]);
			await p.mouse.down();
			await p.mouse.move((geo[0] + geo[1]) / 2, geo[2], { steps: 4 });
			await p.mouse.move(geo[1], geo[2], { steps: 4 });
			await p.mouse.up();
			await sleep(100);
			say('range', await p.evaluate(() => document.getElementById('tl-range').textContent));
			const t = await p.evaluate(() => window.profPage.totals());
			say('totals', t.samples, t.total);
		} else if (cmd === 'track') {
			const runs = await p.evaluate((tid) => {
				const y = window.profPage.trackY(+tid);
				if (y < 0) return null;
				const cv = document.getElementById('tl-canvas'), dpr = cv.width / cv.getBoundingClientRect().width;
				const g = cv.getContext('2d');
				const row = g.getImageData(0, Math.round((y + 7) * dpr), cv.width, 1).data;
				const out = { blocked: [], oncpu: 0 };
				let start = -1;
				const blue = (i) => row[i] === 0x2a && row[i + 1] === 0x6b && row[i + 2] === 0xff;
				const cpu = (i) => (row[i] === 0xe9 && row[i + 1] === 0xa4 && row[i + 2] === 0x00) ||
					(row[i] === 0xe8 && row[i + 1] === 0x61 && row[i + 2] === 0x2c);
				for (let x = 0; x <= cv.width; x++) {
					const on = x < cv.width && blue(4 * x);
					if (x < cv.width && cpu(4 * x)) out.oncpu++;
					if (on && start < 0) start = x;
					if (!on && start >= 0) {
						out.blocked.push([window.profPage.secondsAt(start / dpr), window.profPage.secondsAt(x / dpr)]);
						start = -1;
					}
				}
				out.oncpu = Math.round(out.oncpu / dpr);
				return out;
			}, arg);
			if (!runs) {
				say('error', 'no track for thread ' + arg);
				continue;
			}
			for (const r of runs.blocked) say('blocked', r[0].toFixed(6), r[1].toFixed(6));
			say('oncpu', runs.oncpu);
		} else if (cmd === 'thread') {
			const geo = await p.evaluate((tid) => {
				const c = document.getElementById('tl-canvas').getBoundingClientRect();
				return [c.left + 20, c.top + window.profPage.trackY(+tid) + 7];
			}, arg);
			await p.mouse.click(geo[0], geo[1]);
			await sleep(50);
			const t = await p.evaluate(() => window.profPage.totals());
			say('totals', t.samples, t.total);
		} else if (cmd === 'latency') {
			await p.click('#latency');
			await sleep(50);
			const t = await p.evaluate(() => window.profPage.totals());
			say('totals', t.samples, t.total);
		} else if (cmd === 'event') {
			await p.evaluate((n) => {
				const s = document.getElementById('event');
				s.value = Array.from(s.options).find((o) => o.textContent.startsWith(n + ' (')).value;
				s.dispatchEvent(new Event('change'));
			}, arg);
			const t = await p.evaluate(() => window.profPage.totals());
			say('totals', t.samples, t.total);
		} else if (cmd === 'source') {
			await tab('funcs');
			const i = await p.evaluate((n) => window.profPage.funcRow(n), arg);
			if (i < 0) {
				say('error', 'no function ' + arg);
				continue;
			}
			await p.focus('#funcs');
			await p.evaluate((i) => { const f = document.getElementById('funcs'); f.scrollTop = i * 20; f.onscroll(); }, i);
			await p.click(`#funcs .row[data-i="${i}"]`);
			await p.keyboard.press('Enter');
			await sleep(50);
			for (const r of await p.evaluate(() => Array.from(document.querySelectorAll('#src-lines tr.hl'))
				.map((tr) => Array.from(tr.children).map((c) => c.textContent))))
				say('src', r[2], r[0]);
			say('srcfirst', await p.evaluate(() => {
				const h = document.querySelector('#src-text .hotline');
				return h ? h.dataset.line + ' ' + h.textContent.replace(/\s+/g, ' ').trim() : '';
			}));
			say('srcwhy', await p.evaluate(() => document.getElementById('src-why').textContent));
			// the disassembly: each instruction with a share, its line headers, and what it says
			for (const r of await p.evaluate(() => Array.from(document.querySelectorAll('#src-dis .di, #src-dis .dl'))
				.map((d) => d.classList.contains('dl') ? ['disline', d.textContent]
					: ['dis', d.dataset.off, d.children[0].textContent, d.children[1].textContent,
						d.lastChild.textContent, d.classList.contains('hotinsn') ? 'hot' : ''])))
				say(...r);
			say('diswhy', await p.evaluate(() => document.getElementById('src-dis-why').textContent));
		} else if (cmd === 'diff') {
			// a diff page: its verdict, its function rows, both flame graphs' frames
			say('verdict', ...await p.evaluate(() => { const v = document.getElementById('verdict'); return [v.className, v.textContent]; }));
			await tab('funcs');
			for (const r of await p.evaluate(() => Array.from(document.querySelectorAll('#funcs .row'))
				.sort((a, b) => a.offsetTop - b.offsetTop)
				.map((r) => [r.className.replace(/\b(row|cur)\b/g, '').trim()].concat(Array.from(r.children).map((c) => c.textContent)))))
				say('drow', ...r);
			await tab('flame');
			for (const side of [0, 1])
				for (const f of await p.evaluate((side) => {
					const all = Array.from(document.querySelectorAll('#flame-' + side + ' .fr'));
					const root = all.find((r) => r.dataset.node === '0');
					if (!root) return [];
					const rw = root.getBoundingClientRect().width;
					return all.filter((r) => r.dataset.node !== '0').map((r) => [window.profPage.depth(+r.dataset.node),
						(r.getBoundingClientRect().width / rw).toFixed(4),
						['grew', 'shrank', 'noise'].find((c) => r.classList.contains(c)), window.profPage.frameName(+r.dataset.node)]);
				}, side))
					say('dframe', side ? 'new' : 'base', ...f);
		} else if (cmd === 'text') {
			say('text', await p.evaluate((s) => { const e = document.querySelector(s); return e ? e.textContent : ''; }, arg));
		} else if (cmd === 'shot') {
			await p.screenshot({ path: arg });
		} else {
			say('error', 'unknown step ' + step);
		}
	}
});
