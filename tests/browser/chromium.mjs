// SPDX-License-Identifier: GPL-2.0-or-later
// What the drivers (page.mjs, speedscope.mjs, timing.mjs,
// speedscope-open.mjs) share: headless Chromium launched as the tests want
// it (the system's browser, a profile of its own in OUTDIR, nothing fetched
// in the background), a page's errors and requests reported as "error"
// lines, and a driver's run from launch to exit.
import path from 'node:path';
import puppeteer from 'puppeteer-core';

export function launch(browser, outdir) {
	return puppeteer.launch({
		executablePath: browser,
		headless: true,
		userDataDir: path.resolve(outdir, 'chrome'),
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		       '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader'],
	});
}

// say('error', ...) for a page error, a console error (or warning, with
// warnings), and a request that is not file:, data: or blob: or the URL allowed.
export function watch(page, say, { warnings = false, allow = null } = {}) {
	page.on('pageerror', (e) => say('error', 'page: ' + e.message));
	page.on('console', (m) => {
		if (m.type() === 'error' || (warnings && m.type() === 'warn')) say('error', 'console: ' + m.text());
	});
	page.on('request', (r) => {
		if (!/^(file|data|blob):/.test(r.url()) && r.url() !== allow) say('error', 'request: ' + r.url());
	});
}

// Launch the browser, run body(browser), close it, print the lines of out
// and exit: 0, or 2 with "error driver: ..." said when body threw.
export async function drive(browser, outdir, out, say, body) {
	const b = await launch(browser, outdir);
	let status = 0;
	try {
		await body(b);
	} catch (e) {
		say('error', 'driver: ' + (e && e.message));
		status = 2;
	} finally {
		await b.close();
	}
	process.stdout.write(out.join('\n') + '\n');
	process.exit(status);
}
