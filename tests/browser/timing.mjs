// SPDX-License-Identifier: GPL-2.0-or-later
// How long a page of prof report --format html takes to answer a user, in
// headless Chromium: from the input to the frame painted after it, for
// first render and each interaction a user of a whole-host profile makes
// (tabs, a timeline range and its clearing, a thread picked, a search key, a
// sort, a zoom, keys). For tests/bench/bench-page.sh; not a test.
//
//   node timing.mjs BROWSER FILE.html OUTDIR [ROUNDS]
//
// Prints "ready MS" (load to interactive, the first view drawn), then per
// interaction "time NAME MS LONGEST" : the median over ROUNDS (3) of the
// wall time from the input (for a range: the button let go at the end of
// the drag) to the next painted frame, less the same
// measure of an input the page ignores (the driver's own round trip), and
// the longest main-thread task seen meanwhile (PerformanceObserver
// "longtask", 0 when none was over 50 ms). "error TEXT" on a page error.
import path from 'node:path';
import { drive, watch } from './chromium.mjs';

const [browser, file, outdir, roundsArg] = process.argv.slice(2);
const rounds = +roundsArg || 3;
const out = [];
const say = (...f) => out.push(f.join('\t'));
await drive(browser, outdir, out, say, async (b) => {
	const p = await b.newPage();
	watch(p, say, { warnings: true });
	await p.setViewport({ width: 1400, height: 900 });
	await p.evaluateOnNewDocument(() => {
		window.__long = 0;
		new PerformanceObserver((l) => {
			for (const e of l.getEntries()) window.__long = Math.max(window.__long, e.duration);
		}).observe({ type: 'longtask', buffered: true });
	});
	const t0 = Date.now();
	await p.goto('file://' + path.resolve(file), { waitUntil: 'load' });
	await p.waitForFunction(() => window.profPage && window.profPage.ready, { timeout: 600000, polling: 20 });
	// the first view painted
	await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
	say('ready', Date.now() - t0);
	const err = await p.evaluate(() => window.profPage.error || '');
	if (err) say('error', 'page: ' + err);
	const painted = () => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
	const once = async (act, prep) => {
		if (prep) await prep();
		await painted();
		await p.evaluate(() => { window.__long = 0; });
		const s = Date.now();
		await act();
		await painted();
		const ms = Date.now() - s;
		return [ms, await p.evaluate(() => window.__long)];
	};
	const median = (v) => v.slice().sort((x, y) => x - y)[Math.floor((v.length - 1) / 2)];
	const canvas = () => p.evaluate(() => {
		const c = document.getElementById('tl-canvas').getBoundingClientRect();
		return { left: c.left, top: c.top, width: c.width };
	});
	const tab = (t) => () => p.click(`#tabs button[data-tab=${t}]`);
	let base = 0;
	const time = async (name, act, undo, prep) => {
		const ms = [], lt = [];
		for (let k = 0; k < rounds; k++) {
			const [m, l] = await once(act, prep);
			ms.push(m);
			lt.push(l);
			if (undo) await undo();
		}
		const m = median(ms);
		if (name === null) {
			base = m;
			return;
		}
		say('time', name, Math.max(0, m - base), Math.round(Math.max(...lt)));
	};
	// the driver's own round trip: a click on the page's title, which does nothing
	await time(null, () => p.mouse.click(5, 5));
	say('baseline', base);
	await time('tab-flame', tab('flame'), tab('funcs'));
	await time('tab-tree', tab('tree'), tab('funcs'));
	await time('tab-funcs', tab('funcs'), tab('flame'));
	await p.click('#tabs button[data-tab=funcs]');
	// a drag across the timeline: the range is the page's work when the button is let go
	const press = async (fa, fz) => {
		const c = await canvas();
		const lab = await p.evaluate(() => window.profPage.xOf(0));
		const x0 = c.left + lab + (c.width - lab) * fa, x1 = c.left + lab + (c.width - lab) * fz, y = c.top + 25;
		await p.mouse.move(x0, y);
		await p.mouse.down();
		await p.mouse.move((x0 + x1) / 2, y);
		await p.mouse.move(x1, y);
	};
	const drag = async (fa, fz) => {
		await press(fa, fz);
		await p.mouse.up();
	};
	const clear = () => p.click('#tl-clear');
	await time('range', () => p.mouse.up(), clear, () => press(0.3, 0.6));
	await drag(0.3, 0.6);
	await painted();
	await time('range-clear', clear, () => drag(0.3, 0.6));
	await clear();
	await painted();
	const thread = async () => {
		const c = await canvas();
		const y = await p.evaluate(() => window.profPage.trackY(window.profPage.tracks()[0].tid));
		await p.mouse.click(c.left + 20, c.top + y + 7);
	};
	await time('thread', thread, thread);
	await time('sort', () => p.click('#funcs-head span:first-child'),
		() => p.click('#funcs-head span:nth-child(2)'));
	const key = (k) => () => p.click(`#keys input[value=${k}]`);
	await time('key-comm', key('comm'), key('comm'));
	await p.click('#tabs button[data-tab=flame]');
	await painted();
	// a search's first keystroke (the one that marks the most frames)
	await p.focus('#search');
	await time('search-key', () => p.keyboard.press('m'), () => p.keyboard.press('Backspace'));
	const zoomAt = async () => {
		const at = await p.evaluate(() => {
			const r = Array.from(document.querySelectorAll('#flame .fr'))
				.filter((r) => r.dataset.node !== '0' && r.getBoundingClientRect().width > 40)[3];
			if (!r) return null;
			r.scrollIntoView({ block: 'center' });
			const q = r.getBoundingClientRect();
			return [q.left + 5, q.top + 5];
		});
		if (at) await p.mouse.click(at[0], at[1]);
	};
	await time('zoom', zoomAt, () => p.click('#unzoom'));
	await p.click('#tabs button[data-tab=tree]');
	await painted();
	const expand = async () => {
		await p.focus('#tree');
		await p.keyboard.press('Home');
		await p.keyboard.press('*');
	};
	await time('tree-expand', expand, async () => { await p.keyboard.press('Home'); await p.keyboard.press('ArrowLeft'); });
	await time('tree-bottom-up', () => p.click('input[name=tmode][value=bottom]'),
		() => p.click('input[name=tmode][value=top]'));
});
