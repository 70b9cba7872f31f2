// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_api_noleak.c - <idlesim.h> defines nothing a program may want for itself.
 *
 * governors/governor.h defines min, max, TICK_NSEC, ARRAY_SIZE ... for the governors; none
 * of it may reach the public header. Macros defined before the include would be redefined
 * (an error under -Werror) or would break the header's own code if it used them; names
 * declared after it would clash with a macro or a typedef of the same name. Built with
 * -std=c11 -pedantic -Wall -Wextra -Werror (tests/CMakeLists.txt); running it calls the
 * library once, so the link is checked too.
 */
#define min(a, b) ((a) < (b) ? (b) : (a)) /* deliberately not the kernel's */
#define max(a, b) 0
#define ARRAY_SIZE 3
#define KTIME_MAX "never"
#define FIXED_1 1.5
#define DIV_ROUND_CLOSEST(x) (x)

#include <idlesim.h>

#include <stdio.h>
#include <string.h>

/* Each of these is a macro or a typedef in governors/governor.h or its ABI header. */
static const long TICK_NSEC = 4000000;
static const long TICK_USEC = 4000;
typedef double u64;
typedef char s64;
struct cpuidle_state {
	int mine;
};
static int sim_error_set(int x)
{
	return x;
}

int main(void)
{
	struct cpuidle_state s = { min(1, 2) + max(3, 4) + ARRAY_SIZE };
	u64 half = FIXED_1;
	s64 c = (s64)DIV_ROUND_CLOSEST(7);
	const char *v = idlesim_version();

	/* min here is the file's own (2 + 0 + 3 = 5): the header changed nothing. */
	if (s.mine != 5 || half != 1.5 || c != 7 || TICK_NSEC / TICK_USEC != 1000 ||
	    strcmp(KTIME_MAX, "never") || sim_error_set(1) != 1 || !v || !*v) {
		fprintf(stderr, "test_api_noleak: a definition of the header's changed the file's\n");
		return 1;
	}
	return 0;
}
