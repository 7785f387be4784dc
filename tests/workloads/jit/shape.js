// SPDX-License-Identifier: GPL-2.0-or-later
// A JavaScript program of known shape for the JIT tests: leaf_a, leaf_b
// and leaf_c share its CPU time 6:3:1, each called from main. Each leaf
// spins on its own loop until it has used its share of a 10 ms slice
// of CPU time.
// Run: node [--perf-basic-prof | --perf-prof] shape.js SECONDS
'use strict';

function cpu_ms() { return process.cpuUsage().user / 1000; }

function leaf_a(ms) {
	const end = cpu_ms() + ms;
	let x = 1.0;
	while (cpu_ms() < end)
		for (let i = 0; i < 50000; i++)
			x = x * 1.0000001 + Math.sqrt(i);
	return x;
}
function leaf_b(ms) {
	const end = cpu_ms() + ms;
	let x = 2.0;
	while (cpu_ms() < end)
		for (let i = 0; i < 50000; i++)
			x = x * 1.0000002 + Math.sqrt(i);
	return x;
}
function leaf_c(ms) {
	const end = cpu_ms() + ms;
	let x = 3.0;
	while (cpu_ms() < end)
		for (let i = 0; i < 50000; i++)
			x = x * 1.0000003 + Math.sqrt(i);
	return x;
}

const secs = Number(process.argv[2] || 1);
const end = Date.now() + secs * 1000;
let sink = 0;
while (Date.now() < end)
	sink += leaf_a(6) + leaf_b(3) + leaf_c(1);
if (sink === 42) console.log(sink);
