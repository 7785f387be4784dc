// SPDX-License-Identifier: GPL-2.0-or-later
// A Java program of known shape for the JIT tests: leafA, leafB and leafC
// share its CPU time 6:3:1, each called from main. Each leaf spins on its
// own loop until it has used its share of a 10 ms slice of CPU time.
// Run: java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit
//      -XX:+PreserveFramePointer Shape.java SECONDS
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class Shape {
	static final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

	static long cpuNs() { return mx.getCurrentThreadCpuTime(); }

	static double leafA(long ms) {
		long end = cpuNs() + ms * 1000000;
		double x = 1.0;
		while (cpuNs() < end)
			for (int i = 0; i < 200000; i++)
				x = x * 1.0000001 + Math.sqrt(i);
		return x;
	}

	static double leafB(long ms) {
		long end = cpuNs() + ms * 1000000;
		double x = 2.0;
		while (cpuNs() < end)
			for (int i = 0; i < 200000; i++)
				x = x * 1.0000002 + Math.sqrt(i);
		return x;
	}

	static double leafC(long ms) {
		long end = cpuNs() + ms * 1000000;
		double x = 3.0;
		while (cpuNs() < end)
			for (int i = 0; i < 200000; i++)
				x = x * 1.0000003 + Math.sqrt(i);
		return x;
	}

	public static void main(String[] args) {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 1;
		long end = System.nanoTime() + (long)(secs * 1e9);
		double sink = 0;
		while (System.nanoTime() < end)
			sink += leafA(6) + leafB(3) + leafC(1);
		if (sink == 42)
			System.out.println(sink);
	}
}
