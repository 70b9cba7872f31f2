// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_browser.c - the report of the demo trace in a real browser: headless Chromium
 * (Debian package chromium) renders `idlesim report -m skl` to a 1400x1000 PNG, with its
 * log on stderr; the test fails if the page logged anything to the console (a resource it
 * could not load, a script error) and if the picture is blank: in the timeline area (the
 * lanes start about 300 px down, right of the 100 px of labels) at least a third of the
 * pixels must be exactly one of the state colours of sim/report/html.c, and at least four
 * different state colours must appear whole (the window of the demo run on skl shows wide
 * C1E, C3, C6 and C8 entries; POLL and C1 ones are too narrow to keep a pure colour).
 *
 * Without /usr/bin/chromium (or without libpng to read the PNG) it says SKIPPED and exits
 * 77, which ctest lists as skipped; .ci/run installs both.
 *
 * `test_browser --save FILE` also copies the screenshot to FILE: docs/report-demo.png is
 * made so (README).
 *
 * And `idlesim diff -f html` of menu@6.19 against teo@6.19 on the demo trace (skl): no
 * console message, and its timeline of divergences drawn: 61.9 % of the run's decisions
 * diverge, spread over all eight CPUs, so most of the band of rows under the heading
 * (below y = 200, right of the 60 px of CPU names, 1000 px wide) must be tints of its red
 * (#e63946 at the bin's share over white: red high, green and blue at least 40 lower).
 */
#include "tests/testbin.h"

#include <unistd.h>

#ifdef IDLESIM_HAVE_PNG
#include <png.h>
#endif

#define CHROMIUM "/usr/bin/chromium"
#define WIDTH 1400
#define HEIGHT 1000

static int say_skipped(const char *why)
{
	printf("SKIPPED: the browser test: %s\n", why);
	fprintf(stderr, "idlesim: WARNING: SKIPPED: the browser test: %s\n", why);
	return 77;
}

#ifdef IDLESIM_HAVE_PNG
/* The state colours of sim/report/html.c, as 0xRRGGBB. */
static const unsigned int state_rgb[] = { 0xf4a261, 0xe9c46a, 0xc7d66d, 0x8fd694, 0x5cc8c2,
					  0x4a9fd8, 0x3a6fc4, 0x3548a8, 0x2b2d80, 0x1b1452 };

/* The screenshot's pixels, RGB, WIDTH x HEIGHT; free() them. */
static unsigned char *read_png(const char *path)
{
	png_image img;
	unsigned char *px;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path))
		fail_msg("%s: %s", path, img.message);
	img.format = PNG_FORMAT_RGB;
	assert_int_equal(img.width, WIDTH);
	assert_int_equal(img.height, HEIGHT);
	px = malloc(PNG_IMAGE_SIZE(img));
	assert_non_null(px);
	if (!png_image_finish_read(&img, NULL, px, 0, NULL))
		fail_msg("%s: %s", path, img.message);
	return px;
}

static void check_png(const char *path)
{
	unsigned char *px = read_png(path);
	unsigned long coloured = 0, total = 0;
	unsigned int seen = 0;
	int x, y;
	size_t k;

	for (y = 300; y < 750; y++)
		for (x = 110; x < 1200; x++) {
			const unsigned char *p = px + ((size_t)y * WIDTH + (size_t)x) * 3;
			unsigned int rgb = (unsigned int)p[0] << 16 | (unsigned int)p[1] << 8 | p[2];

			total++;
			for (k = 0; k < sizeof(state_rgb) / sizeof(state_rgb[0]); k++)
				if (rgb == state_rgb[k]) {
					coloured++;
					seen |= 1u << k;
				}
		}
	free(px);
	if (coloured * 3 < total || __builtin_popcount(seen) < 4)
		fail_msg("the timeline area looks blank: %lu of %lu pixels in state colours, %d "
			 "colours",
			 coloured, total, __builtin_popcount(seen));
}

static void check_diff_png(const char *path)
{
	unsigned char *px = read_png(path);
	unsigned long red = 0;
	int x, y;

	for (y = 200; y < 400; y++)
		for (x = 60; x < 1100; x++) {
			const unsigned char *p = px + ((size_t)y * WIDTH + (size_t)x) * 3;

			red += p[0] >= 200 && p[0] - p[1] >= 40 && p[0] - p[2] >= 40;
		}
	free(px);
	/* eight rows of 12 px by 1000 px: 96,000 pixels, most of them divergent bins */
	if (red < 40000)
		fail_msg("the timeline of divergences looks blank: %lu red pixels", red);
}
#endif

static const char *save_to;

/* tmpdir/PAGE rendered to tmpdir/shot.png; fails if the page logged to the console. */
static void render(const char *page)
{
	char cmd[2048];
	char *log;

	snprintf(cmd, sizeof(cmd),
		 "cd %s && " CHROMIUM " --headless --no-sandbox --disable-gpu --hide-scrollbars "
		 "--enable-logging=stderr --v=0 --screenshot=%s/shot.png --window-size=%d,%d "
		 "file://%s/%s >%s/chromium.out 2>%s/chromium.log",
		 tmpdir, tmpdir, WIDTH, HEIGHT, tmpdir, page, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 0);
	log = slurp_tmp("chromium.log");
	if (strstr(log, ":CONSOLE("))
		fail_msg("%s logged to the console:\n%s", page, strstr(log, ":CONSOLE("));
	free(log);
}

static void test_render_demo(void **state)
{
	char cmd[2048];

	(void)state;
	snprintf(cmd, sizeof(cmd), "cd %s && %s report -m skl -o %s/demo.html", SRC, BIN, tmpdir);
	assert_int_equal(sh(cmd), 0);
	render("demo.html");
#ifdef IDLESIM_HAVE_PNG
	check_png(tmp_path("shot.png"));
#endif
	if (save_to) {
		snprintf(cmd, sizeof(cmd), "cp %s/shot.png %s", tmpdir, save_to);
		assert_int_equal(sh(cmd), 0);
	}
}

static void test_render_diff(void **state)
{
	char cmd[2048];

	(void)state;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && %s diff -g menu@6.19 -g teo@6.19 -m skl -f html -o %s/diff.html", SRC,
		 BIN, tmpdir);
	assert_int_equal(sh(cmd), 0);
	render("diff.html");
#ifdef IDLESIM_HAVE_PNG
	check_diff_png(tmp_path("shot.png"));
#endif
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("browser");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_demo),
		cmocka_unit_test(test_render_diff),
	};

	if (argc == 3 && !strcmp(argv[1], "--save"))
		save_to = argv[2];
	if (access(CHROMIUM, X_OK))
		return say_skipped(CHROMIUM " is not installed (Debian package chromium; .ci/run installs it)");
#ifndef IDLESIM_HAVE_PNG
	return say_skipped("built without libpng (Debian package libpng-dev), the screenshot cannot be read");
#endif
	return cmocka_run_group_tests(tests, setup, teardown);
}
