// SPDX-License-Identifier: GPL-2.0-or-later
// How long speedscope's own app (its npm package, from file://, handed the
// file as its command line hands it) takes to open a speedscope file in
// headless Chromium: from the page's load to the profile shown (the
// toolbar's "NAME (i/n)"). For tests/bench/bench-page.sh; not a test.
//
//   node speedscope-open.mjs BROWSER FILE.json OUTDIR
//
// Prints "open MS", "cpu S" (the renderer's main-thread task time,
// Chromium's TaskDuration), "heap MB" (JavaScript heap used then) and
// "profiles N" (the n of "(i/n)"); "error TEXT" when it did not open.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive, watch } from './chromium.mjs';

const [browser, file, outdir] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.join(here, 'node_modules/speedscope/dist/release/index.html');
const loader = path.resolve(outdir, 'speedscope-open.js');
const out = [];
const say = (...f) => out.push(f.join('\t'));
fs.writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify(path.basename(file))}, ` +
	`${JSON.stringify(fs.readFileSync(file).toString('base64'))})\n`);
await drive(browser, outdir, out, say, async (b) => {
	const p = await b.newPage();
	watch(p, say);
	await p.setViewport({ width: 1400, height: 900 });
	const t0 = Date.now();
	await p.goto('file://' + app + '#localProfilePath=' + loader, { waitUntil: 'load' });
	const title = () => document.body.innerText.split('\n').find((l) => /\(\d+\/\d+\)$/.test(l)) || '';
	await p.waitForFunction(title, { timeout: 600000, polling: 50 });
	const ms = Date.now() - t0;
	const m = await p.metrics();
	say('open', ms);
	say('cpu', m.TaskDuration.toFixed(2));
	say('heap', (m.JSHeapUsedSize / 1e6).toFixed(0));
	say('profiles', (await p.evaluate(title)).match(/\/(\d+)\)$/)[1]);
});
