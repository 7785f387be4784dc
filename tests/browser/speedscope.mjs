// SPDX-License-Identifier: GPL-2.0-or-later
// Loads a speedscope file into speedscope's own app (its npm package, from
// file://, as its command line does) in headless Chromium, and prints what
// the app shows: for each profile (thread) in turn, its title, then the
// rows of its Sandwich view, the functions with their total and self
// weights as the app computed them.
//
//   node speedscope.mjs BROWSER FILE.json OUTDIR [PROFILES]
//
// Output lines, tab-separated:
//   profile TITLE
//   row     TOTAL SELF NAME      (weights as the app prints them: "40.00ms (67%)")
//   error   TEXT                 (a page error, a console error, a request off file://)
// Exit 0 when the app loaded the file; 2 when it could not be driven.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watch } from './chromium.mjs';

const [browser, file, outdir, nprof] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.join(here, 'node_modules/speedscope/dist/release/index.html');
const loader = path.resolve(outdir, 'speedscope-load.js');
const out = [];
const say = (...f) => out.push(f.map(s => String(s).replace(/[\t\n]/g, ' ')).join('\t'));

// What speedscope's command line writes: a script that hands the app the file.
fs.writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify(path.basename(file))}, ` +
	`${JSON.stringify(fs.readFileSync(file).toString('base64'))})\n`);

const b = await launch(browser, outdir);
const sleep = ms => new Promise(r => setTimeout(r, ms));
try {
	const p = await b.newPage();
	watch(p, say);
	await p.setViewport({ width: 1400, height: 900 });
	await p.goto('file://' + app + '#localProfilePath=' + loader, { waitUntil: 'load' });
	// loaded: the toolbar names the profile, "NAME (i/n)"
	let title = '';
	for (let i = 0; i < 100 && !/\(\d+\/\d+\)/.test(title); i++) {
		await sleep(100);
		title = await p.evaluate(() => document.body.innerText.split('\n').find(l => /\(\d+\/\d+\)$/.test(l)) || '');
	}
	if (!title) {
		say('error', 'speedscope did not show the profile: ' +
		    (await p.evaluate(() => document.body.innerText)).slice(0, 300));
	} else {
		await p.evaluate(() => {
			for (const d of document.querySelectorAll('div'))
				if (d.children.length <= 1 && d.textContent.trim().endsWith('Sandwich')) {
					d.click();
					return;
				}
		});
		const n = Math.min(+(title.match(/\/(\d+)\)$/)[1]), +(nprof || 10));
		for (let k = 0; k < n; k++) {
			if (k) {
				const before = title;
				await p.keyboard.press('n');	// speedscope's key for the next profile
				for (let i = 0; i < 50 && title === before; i++) {
					await sleep(100);
					title = await p.evaluate(() => document.body.innerText.split('\n').find(l => /\(\d+\/\d+\)$/.test(l)) || '');
				}
			}
			await sleep(300);
			say('profile', title);
			const rows = await p.evaluate(() => Array.from(document.querySelectorAll('tr')).map(r =>
				Array.from(r.querySelectorAll('td')).map(td => td.innerText.trim())));
			// the Sandwich table's rows: "40.00ms (67%)", not the profile picker's
			for (const r of rows)
				if (r.length >= 3 && /\(.*%\)$/.test(r[0]))
					say('row', r[0], r[1], r[2]);
		}
	}
} catch (e) {
	say('error', 'driver: ' + e.message);
	console.log(out.join('\n'));
	await b.close();
	process.exit(2);
}
await b.close();
console.log(out.join('\n'));
