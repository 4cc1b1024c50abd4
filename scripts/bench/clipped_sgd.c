/*
 * BENCHMARK REFERENCE ONLY - not part of dpso, not run by CI, not needed to
 * build or test it.
 *
 * A C implementation of the algorithm that
 *
 *     dpso run --scenario linreg-t --class smooth-sc --n N --d D --tail NU --iters T --trials 1
 *
 * runs, written as a C programmer would write it for speed, to measure how
 * far dpso's whole process is from compiled code doing the same work:
 *
 *   - the same data law and the same samplers: per sample d + 1 standard
 *     normals (z, zeta) from the 256-layer ziggurat (Marsaglia & Tsang 2000,
 *     dpso's tables and tail/wedge steps: scenarios/dist/rand.go), then one
 *     Gamma(nu/2) draw by Marsaglia & Tsang (2000) (scenarios/dist/dist.go),
 *     all from xoshiro256++ (Blackman & Vigna); m = sqrt(nu/chi2_nu),
 *     a = m z, y = <w*, a> + sigma m zeta, w* = |w*| (1, ..., 1)/sqrt(d);
 *   - the same solver: clipped-sgd (noisy clipped SGD with Stich's steps and
 *     weights, solvers/clippedsgd.go): T + 1 oracle calls on disjoint
 *     batches of floor(n/(T+1)) samples (the first n mod (T+1) one more),
 *     each clipping the per-sample gradients (<w, a> - y) a to l2 norm C,
 *     averaging, adding N(0, s^2 I) with s = 2C/(batch eps), then
 *     w <- Proj_W(w - eta_t g) and the weighted average of Stich (2019),
 *     Lemma 3, with g = beta = mu = nu/(nu - 2);
 *   - one core, one pass, the data never stored (O(d) memory).
 *
 * It does not draw the same bits as dpso (dpso keys its streams by SHA-256
 * and draws the noise from ChaCha8): the work per sample is the same, the
 * numbers are those of another seed. C is dpso's prescription, read from
 * dpso's output (pass it with --clip; the time does not depend on it).
 *
 * Build and run (whole-process time is what is compared):
 *
 *     gcc -O3 -march=native -o /tmp/clipped_sgd scripts/bench/clipped_sgd.c -lm
 *     /tmp/clipped_sgd --n 1000000 --d 50 --tail 5 --iters 100 --clip 7174.71
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- xoshiro256++ ---- */

static uint64_t s0, s1, s2, s3;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(void) {
	uint64_t out = rotl(s0 + s3, 23) + s0;
	uint64_t t = s1 << 17;
	s2 ^= s0;
	s3 ^= s1;
	s1 ^= s2;
	s0 ^= s3;
	s2 ^= t;
	s3 = rotl(s3, 45);
	return out;
}

static uint64_t splitmix(uint64_t *x) {
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline double uniform(void) { return (double)(next_u64() >> 11) * 0x1p-53; }

/* ---- the ziggurat (dpso's tables) ---- */

#define ZIG_R 3.6541528853610088

static uint64_t zig_k[256];
static double zig_w[256], zig_f[257], zig_x[257];

static double half_normal(double x) { return exp(-x * x / 2); }

static void init_ziggurat(void) {
	double v = ZIG_R * half_normal(ZIG_R) + sqrt(M_PI / 2) * erfc(ZIG_R / sqrt(2));
	zig_x[0] = v / half_normal(ZIG_R);
	zig_x[1] = ZIG_R;
	for (int i = 1; i < 255; i++)
		zig_x[i + 1] = sqrt(-2 * log(v / zig_x[i] + half_normal(zig_x[i])));
	zig_x[256] = 0;
	for (int i = 0; i < 257; i++)
		zig_f[i] = half_normal(zig_x[i]);
	for (int i = 0; i < 256; i++) {
		zig_k[i] = (uint64_t)(zig_x[i + 1] / zig_x[i] * 0x1p53);
		zig_w[i] = zig_x[i] * 0x1p-53;
	}
}

/* The draws outside the layer's inner rectangle: the tail beyond R for the
 * base layer (Marsaglia 1964), the wedge otherwise (exact test). */
static double normal_slow(uint64_t u) {
	for (;;) {
		uint64_t i = u & 0xff, j = u >> 11;
		int neg = (u & 0x100) != 0;
		double x;
		if (j < zig_k[i]) {
			x = (double)(int64_t)j * zig_w[i];
		} else if (i == 0) {
			for (;;) {
				double t = -log(1 - uniform()) / ZIG_R;
				double y = -log(1 - uniform());
				if (2 * y >= t * t) {
					x = ZIG_R + t;
					break;
				}
			}
		} else {
			x = (double)(int64_t)j * zig_w[i];
			double uy = uniform();
			if (!(zig_f[i] + uy * (zig_f[i + 1] - zig_f[i]) < exp(-x * x / 2))) {
				u = next_u64();
				continue;
			}
		}
		return neg ? -x : x;
	}
}

static inline double normal(void) {
	uint64_t u = next_u64();
	uint64_t i = u & 0xff, j = u >> 11;
	if (j < zig_k[i]) {
		double x = (double)(int64_t)j * zig_w[i];
		uint64_t bits;
		memcpy(&bits, &x, 8);
		bits |= (u & 0x100) << 55;
		memcpy(&x, &bits, 8);
		return x;
	}
	return normal_slow(u);
}

/* normals fills x[0..n) with standard normal draws: the generator's state
 * is kept in registers across the loop and written back around the rare
 * slow path (as dpso's Rand.Normals does). */
static void normals(double *x, int n) {
	uint64_t a = s0, b = s1, c = s2, e = s3;
	for (int k = 0; k < n; k++) {
		uint64_t u = rotl(a + e, 23) + a;
		uint64_t t = b << 17;
		c ^= a;
		e ^= b;
		b ^= c;
		a ^= e;
		c ^= t;
		e = rotl(e, 45);
		uint64_t i = u & 0xff, j = u >> 11;
		if (j < zig_k[i]) {
			/* x >= 0; bit 8 of u becomes the sign bit (no branch). */
			double v = (double)(int64_t)j * zig_w[i];
			uint64_t bits;
			memcpy(&bits, &v, 8);
			bits |= (u & 0x100) << 55;
			memcpy(&x[k], &bits, 8);
			continue;
		}
		s0 = a, s1 = b, s2 = c, s3 = e;
		x[k] = normal_slow(u);
		a = s0, b = s1, c = s2, e = s3;
	}
	s0 = a, s1 = b, s2 = c, s3 = e;
}

/* ---- Marsaglia-Tsang Gamma(a), a >= 1 ---- */

static double gamma_d, gamma_c;

static inline double gamma_draw(void) {
	for (;;) {
		double x = normal();
		double v = 1 + gamma_c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = 1 - uniform();
		double x2 = x * x;
		if (u < 1 - 0.0331 * x2 * x2 || log(u) < 0.5 * x2 + gamma_d * (1 - v + log(v)))
			return gamma_d * v;
	}
}

static double arg(int argc, char **argv, const char *name, double def) {
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return atof(argv[i + 1]);
	return def;
}

int main(int argc, char **argv) {
	long n = (long)arg(argc, argv, "--n", 1000000);
	int d = (int)arg(argc, argv, "--d", 50);
	double nu = arg(argc, argv, "--tail", 5);
	int T = (int)arg(argc, argv, "--iters", 100);
	double eps = arg(argc, argv, "--eps", 1);
	double C = arg(argc, argv, "--clip", 1000);
	double sigma = arg(argc, argv, "--noise", 1);
	double wnorm = arg(argc, argv, "--wstar", 0.5);
	double R = arg(argc, argv, "--diam", 2) / 2;
	uint64_t seed = (uint64_t)arg(argc, argv, "--seed", 0);
	if (nu / 2 < 1) {
		fprintf(stderr, "this reference draws Gamma(nu/2) for nu >= 2 only\n");
		return 2;
	}

	s0 = splitmix(&seed), s1 = splitmix(&seed), s2 = splitmix(&seed), s3 = splitmix(&seed);
	init_ziggurat();
	gamma_d = nu / 2 - 1.0 / 3;
	gamma_c = 1 / sqrt(9 * gamma_d);

	double *wstar = malloc(sizeof(double) * d), *w = calloc(d, sizeof(double)),
	       *avg = calloc(d, sizeof(double)), *sum = malloc(sizeof(double) * d),
	       *x = malloc(sizeof(double) * (d + 1));
	for (int j = 0; j < d; j++)
		wstar[j] = wnorm / sqrt(d);
	double beta = nu / (nu - 2), mu = beta; /* Cov a = nu/(nu-2) I */
	double g = beta, kap = g / mu, Z = 0;
	int big = T > 2 * kap, t0 = (T + 1) / 2;
	long calls = T + 1, base = n / calls, extra = n % calls;

	for (long t = 0; t < calls; t++) {
		long s = base + (t < extra ? 1 : 0);
		double inv = 1.0 / (double)s;
		memset(sum, 0, sizeof(double) * d);
		for (long i = 0; i < s; i++) {
			normals(x, d + 1);
			double mix = sqrt(nu / (2 * gamma_draw()));
			double y = 0, wa = 0, aa = 0;
			for (int j = 0; j < d; j++) {
				double a = mix * x[j];
				x[j] = a;
				y += wstar[j] * a;
			}
			y += sigma * mix * x[d];
			for (int j = 0; j < d; j++) {
				wa += w[j] * x[j];
				aa += x[j] * x[j];
			}
			double r = wa - y, norm = fabs(r) * sqrt(aa);
			double scale = norm > C ? C / norm : 1;
			double k = scale * inv * r;
			for (int j = 0; j < d; j++)
				sum[j] += k * x[j];
		}
		double sd = 2 * C / ((double)s * eps);
		double eta, zeta;
		if (!big) {
			eta = 1 / g, zeta = pow(1 - mu / (2 * g), -(double)(t + 1));
		} else if (t < t0) {
			eta = 1 / g, zeta = 0;
		} else {
			double xx = 4 * kap + (double)(t - t0);
			eta = 4 / (mu * xx), zeta = xx * xx;
		}
		double nw = 0;
		for (int j = 0; j < d; j++) {
			w[j] -= eta * (sum[j] + sd * normal());
			nw += w[j] * w[j];
		}
		if (sqrt(nw) > R)
			for (int j = 0; j < d; j++)
				w[j] *= R / sqrt(nw);
		if (zeta > 0) {
			Z += zeta;
			for (int j = 0; j < d; j++)
				avg[j] += zeta / Z * (w[j] - avg[j]);
		}
	}
	double F = 0;
	for (int j = 0; j < d; j++)
		F += (avg[j] - wstar[j]) * (avg[j] - wstar[j]);
	printf("excess risk %.6g  C = %.6g\n", 0.5 * beta * F, C);
	return 0;
}
