// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov.c - compile, cache and load a kernel governor file (see kgov.h).
 *
 * The build: $IDLESIM_CC (words split at blanks) or cc, with KGOV_CFLAGS (and
 * -DIDLESIM_KAPI_US for a file of the us-era API, see kgov_detect_api()), the layer's
 * include/ and the file's own directory (for the tree's gov.h) on the include path, the file
 * and the layer's kmod.c, into a shared object. The cache key hashes the preprocessed file
 * (so every header it pulls in, the tree's and the layer's, counts), kmod.c, the compiler
 * command and the flags; the object is $XDG_CACHE_HOME/idlesim/kgov-KEY.so (else
 * ~/.cache/idlesim/), written under a temporary name and renamed, so concurrent idlesim
 * processes never load half an object.
 *
 * The loaded modules are process-wide, as dlopen() is: a small table, guarded by a mutex,
 * maps each content key to its registered governor so a file named twice loads once.
 */
#include "sim/run/kgov.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/datadir.h"
#include "sim/engine/govguard.h"

extern char **environ;

/* The kernel's code generation assumptions that change results: wrapping signed arithmetic,
 * no type-based aliasing. Warnings are the kernel's concern, not the user's. */
static const char *const KGOV_CFLAGS[] = {
	"-std=gnu11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-fno-strict-aliasing",
	"-fno-strict-overflow", "-fno-common", "-w",
};
#define KGOV_NR_CFLAGS (sizeof(KGOV_CFLAGS) / sizeof(KGOV_CFLAGS[0]))
#define KGOV_MAX_ARGS 64
#define KGOV_MAX_LOADED 64

struct kgov_loaded {
	char key[33];
	const struct cpuidle_governor *gov;
};

static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kgov_loaded loaded[KGOV_MAX_LOADED];
static unsigned int nr_loaded;

const char *kgov_layer_dir(char *buf, size_t n)
{
	const char *env = getenv("IDLESIM_KCOMPAT_DIR");

	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return buf;
	}
	return datadir_path(buf, n, "kcompat");
}

bool kgov_is_path(const char *arg)
{
	size_t n = strlen(arg);

	return n > 2 && !strcmp(arg + n - 2, ".c");
}

/* 1 if the identifier id[0..n) is one of words[] (NULL-ended), else 0. */
static int ident_in(const char *id, size_t n, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == n && !memcmp(id, *words, n))
			return 1;
	return 0;
}

enum kgov_api kgov_detect_api(FILE *stream)
{
	static const char *const ns_words[] = { "exit_latency_ns", "target_residency_ns",
						"last_residency_ns", NULL };
	static const char *const us_words[] = { "exit_latency", "target_residency",
						"last_residency", NULL };
	char id[32];
	size_t n = 0;
	bool us = false, in_ident = false;
	int c;

	/* Identifiers longer than id[] are none of the words: only their length is tracked. */
	do {
		c = getc(stream);
		if (c != EOF && (c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				 (c >= 'A' && c <= 'Z'))) {
			if (!in_ident && c >= '0' && c <= '9')
				continue; /* a number, not an identifier */
			if (n < sizeof(id))
				id[n] = (char)c;
			n++;
			in_ident = true;
			continue;
		}
		if (in_ident && n <= sizeof(id)) {
			if (ident_in(id, n, ns_words))
				return KGOV_API_NS;
			us = us || ident_in(id, n, us_words);
		}
		n = 0;
		in_ident = false;
	} while (c != EOF);
	return us ? KGOV_API_US : KGOV_API_NS;
}

/* The API of the file at path: $IDLESIM_KERNEL_API (us or ns) if set, else detected. */
static int file_api(const char *path, enum kgov_api *api, struct sim_error *err)
{
	const char *env = getenv("IDLESIM_KERNEL_API");
	FILE *f;

	if (env && *env) {
		if (strcmp(env, "us") && strcmp(env, "ns"))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "IDLESIM_KERNEL_API: '%s' is not us or ns", env);
		*api = strcmp(env, "us") ? KGOV_API_NS : KGOV_API_US;
		return 0;
	}
	f = fopen(path, "r");
	if (!f)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "cannot read governor file: %s",
				     strerror(errno));
	*api = kgov_detect_api(f);
	fclose(f);
	return 0;
}

/* The compiler command, split at blanks into argv[0..]; returns the count, -1 if too long. */
static int compiler_argv(char *buf, size_t size, char **argv, int max)
{
	const char *cc = getenv("IDLESIM_CC");
	int n = 0;
	char *p, *save = NULL;

	snprintf(buf, size, "%s", cc && *cc ? cc : "cc");
	for (p = strtok_r(buf, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		if (n >= max)
			return -1;
		argv[n++] = p;
	}
	return n;
}

/* Run argv with stdout to `out_fd`, stderr to `err_fd`; the exit status, or -1 with errno. */
static int spawn_wait(char **argv, int out_fd, int err_fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errno = rc;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Hash the whole of an open file from its start into h[0], h[1] (two FNV-1a streams). */
static void hash_fd(int fd, uint64_t h[2])
{
	unsigned char b[65536];
	ssize_t k;

	lseek(fd, 0, SEEK_SET);
	while ((k = read(fd, b, sizeof(b))) > 0) {
		h[0] = cfgrec_fnv1a(h[0], b, (size_t)k);
		h[1] = cfgrec_fnv1a(h[1], b, (size_t)k);
	}
}

static void hash_str(const char *s, uint64_t h[2])
{
	h[0] = cfgrec_fnv1a(h[0], s, strlen(s) + 1);
	h[1] = cfgrec_fnv1a(h[1], s, strlen(s) + 1);
}

/* Copy an open file to diag, and its first line holding "error" (else its first) to line. */
static void report_output(int fd, FILE *diag, char *line, size_t size)
{
	char buf[4096];
	FILE *f;

	line[0] = '\0';
	lseek(fd, 0, SEEK_SET);
	f = fdopen(dup(fd), "r");
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		if (diag)
			fputs(buf, diag);
		if (!line[0] || (strstr(buf, "error") && !strstr(line, "error"))) {
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(line, size, "%s", buf);
		}
	}
	fclose(f);
	if (diag)
		fflush(diag);
}

/* mkdir -p */
static int make_dirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

static int cache_dir(char *buf, size_t size, struct sim_error *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, size, "%s/idlesim", xdg);
	else if (home && *home)
		snprintf(buf, size, "%s/.cache/idlesim", home);
	else
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "no cache directory for compiled governors: set XDG_CACHE_HOME or HOME");
	if (make_dirs(buf))
		return sim_error_set(err, SIM_ERR_INPUT, buf, 0, 0, "cannot create: %s", strerror(errno));
	return 0;
}

/* A temporary file for a child's output, unlinked at once. */
static int temp_fd(const char *dir)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/kgov-out.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* argv = compiler, KGOV_CFLAGS, -DIDLESIM_KAPI_US for a us-era file, -I layer/include,
 * -I filedir, then `extra` (NULL-ended). */
static int build_argv(char **argv, char *ccbuf, size_t ccsize, char *inc1, char *inc2,
		      enum kgov_api api, const char *const *extra)
{
	int n = compiler_argv(ccbuf, ccsize, argv, KGOV_MAX_ARGS - 16);
	size_t i;

	if (n <= 0)
		return -1;
	for (i = 0; i < KGOV_NR_CFLAGS; i++)
		argv[n++] = (char *)KGOV_CFLAGS[i];
	if (api == KGOV_API_US)
		argv[n++] = (char *)"-DIDLESIM_KAPI_US";
	argv[n++] = inc1;
	argv[n++] = inc2;
	for (i = 0; extra[i]; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	return n;
}

/* Compile `path` into the cache (unless there) and fill `so` with the object's path. */
static int compile_cached(const char *path, char *so, size_t so_size, char key[33], bool *compiled,
			  FILE *diag, struct sim_error *err)
{
	char dir[4096], inc1[4200], inc2[4200], kmod[4200], ccbuf[1024], tmp[4300], line[300];
	char layer_buf[4096];
	const char *layer = kgov_layer_dir(layer_buf, sizeof(layer_buf));
	char *argv[KGOV_MAX_ARGS];
	uint64_t h[2] = { CFGREC_FNV_OFFSET, CFGREC_FNV_OFFSET ^ 0x9e3779b97f4a7c15ull };
	const char *slash = strrchr(path, '/');
	enum kgov_api api = KGOV_API_NS;
	int out, errfd, rc, kfd;
	size_t i;

	if (access(path, R_OK))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "cannot read governor file: %s",
				     strerror(errno));
	if (file_api(path, &api, err))
		return -1;
	if (cache_dir(dir, sizeof(dir), err))
		return -1;
	snprintf(inc1, sizeof(inc1), "-I%s/include", layer);
	snprintf(inc2, sizeof(inc2), "-I%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	snprintf(kmod, sizeof(kmod), "%s/kmod.c", layer);
	/* Before the compiler says that <linux/cpuidle.h> is missing: say which layer is. */
	if (access(kmod, R_OK))
		return sim_error_set(err, SIM_ERR_INPUT, kmod, 0, 0,
				     "the compatibility layer is missing (IDLESIM_KCOMPAT_DIR?): %s",
				     strerror(errno));
	out = temp_fd(dir);
	errfd = out < 0 ? -1 : temp_fd(dir);
	if (errfd < 0) {
		rc = errno;
		if (out >= 0)
			close(out);
		return sim_error_set(err, SIM_ERR_INPUT, dir, 0, 0, "cannot create a temporary file: %s",
				     strerror(rc));
	}

	/* The key: the preprocessed file (every header it includes), kmod.c, command, flags.
	 * The preprocessor's messages go apart from its output: a missing header is reported
	 * as the compiler says it, not after the text of every header read before it. */
	{
		const char *const extra[] = { "-E", "-P", path, NULL };

		if (build_argv(argv, ccbuf, sizeof(ccbuf), inc1, inc2, api, extra) < 0) {
			close(out);
			close(errfd);
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "IDLESIM_CC: too many words");
		}
		rc = spawn_wait(argv, out, errfd);
	}
	if (rc) {
		if (rc < 0)
			snprintf(line, sizeof(line), "cannot run %s: %s", argv[0], strerror(errno));
		else
			report_output(errfd, diag, line, sizeof(line));
		close(out);
		close(errfd);
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "does not compile: %s", line);
	}
	close(errfd);
	hash_fd(out, h);
	close(out);
	kfd = open(kmod, O_RDONLY);
	if (kfd < 0)
		return sim_error_set(err, SIM_ERR_INPUT, kmod, 0, 0,
				     "the compatibility layer is missing (IDLESIM_KCOMPAT_DIR?): %s",
				     strerror(errno));
	hash_fd(kfd, h);
	close(kfd);
	/* The command without the paths: what they bring in is in the preprocessed text, so
	 * the same content elsewhere (another tree, a moved build tree) is the same module. */
	for (i = 0; argv[i]; i++)
		if (argv[i] != path && argv[i] != inc1 && argv[i] != inc2)
			hash_str(argv[i], h);
	snprintf(line, sizeof(line), "kmod abi %d", IDLESIM_KMOD_ABI);
	hash_str(line, h);
	snprintf(key, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
	snprintf(so, so_size, "%s/kgov-%s.so", dir, key);
	*compiled = false;
	if (!access(so, R_OK))
		return 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", so, (long)getpid());
	out = temp_fd(dir);
	if (out < 0)
		return sim_error_set(err, SIM_ERR_INPUT, dir, 0, 0, "cannot create a temporary file: %s",
				     strerror(errno));
	{
		const char *const extra[] = { path, kmod, "-o", tmp, NULL };

		build_argv(argv, ccbuf, sizeof(ccbuf), inc1, inc2, api, extra);
		rc = spawn_wait(argv, out, out);
	}
	if (rc) {
		if (rc < 0)
			snprintf(line, sizeof(line), "cannot run %s: %s", argv[0], strerror(errno));
		else
			report_output(out, diag, line, sizeof(line));
		close(out);
		unlink(tmp);
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "does not compile: %s", line);
	}
	close(out);
	if (rename(tmp, so)) {
		unlink(tmp);
		return sim_error_set(err, SIM_ERR_INPUT, so, 0, 0, "cannot write: %s", strerror(errno));
	}
	*compiled = true;
	return 0;
}

/* The registered name: FAMILY@file:BASENAME, or FAMILY@file:PATH if that is taken. */
static char *make_name(const char *family, const char *path, const char *key)
{
	const char *base = strrchr(path, '/');
	char buf[4300];

	snprintf(buf, sizeof(buf), "%s@file:%s", family, base ? base + 1 : path);
	if (gov_find(buf))
		snprintf(buf, sizeof(buf), "%s@file:%s", family, path);
	if (gov_find(buf))
		snprintf(buf, sizeof(buf), "%s@file:%s#%.8s", family, path, key);
	return sim_strdup(buf);
}

/*
 * The module's idlesim_kmod_init(), which runs the file's initcalls, isolated as its
 * governor's calls are (sim/engine/govguard.h), with the default limit: a fault or a call
 * that does not return is an input error naming the file. The module stays loaded (its
 * state is garbage; nothing calls it again) and registers nothing.
 */
static int run_initcalls(const char *path, idlesim_kmod_init_fn *init, struct idlesim_kmod *km,
			 int *rc, struct sim_error *err)
{
	struct govguard *g = govguard_create(0, err);
	char sig[32];
	int outcome;

	if (!g)
		return -1;
	outcome = govguard_initcalls(g, init, km, rc);
	if (outcome == GOVGUARD_TIMEOUT)
		sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
			      "its initcalls did not return within %g s while loading",
			      (double)govguard_timeout_ns(g) / 1e9);
	else if (outcome)
		sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
			      "its initcalls crashed (%s) while loading",
			      govguard_signal_name(outcome, sig, sizeof(sig)));
	govguard_destroy(g);
	return outcome ? -1 : 0;
}

/* dlopen the object, run its initcalls, wrap what it registered in a governor of ours. */
static int load_module(const char *path, const char *so, const char *key,
		       const struct cpuidle_governor **out, struct sim_error *err)
{
	struct cpuidle_governor *g;
	struct idlesim_kmod km;
	idlesim_kmod_init_fn *init;
	char summary[4400];
	int rc;
	void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "cannot load %s: %s", so, dlerror());
	*(void **)&init = dlsym(h, IDLESIM_KMOD_ENTRY);
	if (!init)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				     "%s is not an idlesim governor module of this version", so);
	if (run_initcalls(path, init, &km, &rc, err))
		return -1;
	if (rc || km.abi != IDLESIM_KMOD_ABI)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				     "%s is not an idlesim governor module of this version", so);
	if (km.init_error)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "its initcall failed (%d)",
				     km.init_error);
	if (!km.gov || !km.gov->name)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				     "registers no governor (no cpuidle_register_governor() in an initcall)");
	if (km.nr_registered > 1)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				     "registers %u governors; one per file is supported", km.nr_registered);
	g = sim_calloc(1, sizeof(*g));
	if (!g)
		return sim_error_nomem(err, path);
	/* Also what reports record with its tunables (sim/run/cfgrec.c): no commas or semicolons. */
	snprintf(summary, sizeof(summary), "kernel file %s module %.12s", path, key);
	g->name = make_name(km.gov->name, path, key);
	g->summary = sim_strdup(summary);
	g->file = sim_strdup(path); /* its calls are isolated, messages name it */
	if (!g->name || !g->summary || !g->file)
		goto nomem;
	g->rating = km.gov->rating;
	g->priv_size = km.percpu_size;
	g->enable = km.enable;
	g->disable = km.disable;
	g->select = km.select;
	g->reflect = km.reflect;
	if (gov_register(g)) {
		sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "too many governors loaded");
		goto fail;
	}
	*out = g; /* registered: lives until exit, like the module */
	return 0;
nomem:
	sim_error_nomem(err, path);
fail:
	sim_free((void *)g->name);
	sim_free((void *)g->summary);
	sim_free((void *)g->file);
	sim_free(g);
	return -1;
}

int kgov_load(const char *path, FILE *diag, const struct cpuidle_governor **out, bool *compiled,
	      struct sim_error *err)
{
	char so[4200], key[33];
	bool built = false;
	unsigned int i;
	int rc = 0;

	if (compiled)
		*compiled = false;
	if (compile_cached(path, so, sizeof(so), key, &built, diag, err))
		return -1;
	if (compiled)
		*compiled = built;
	pthread_mutex_lock(&loaded_lock);
	for (i = 0; i < nr_loaded && strcmp(loaded[i].key, key); i++)
		;
	if (i < nr_loaded) {
		*out = loaded[i].gov;
	} else if (nr_loaded >= KGOV_MAX_LOADED) {
		rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "too many governor files loaded");
	} else if (!(rc = load_module(path, so, key, out, err))) {
		memcpy(loaded[nr_loaded].key, key, sizeof(key));
		loaded[nr_loaded++].gov = *out;
	}
	pthread_mutex_unlock(&loaded_lock);
	return rc;
}

const struct cpuidle_governor *kgov_find(const char *name, FILE *diag, struct sim_error *err)
{
	const struct cpuidle_governor *g = NULL; /* set by kgov_load on success */

	if (!kgov_is_path(name))
		return gov_find(name);
	return kgov_load(name, diag, &g, NULL, err) ? NULL : g;
}

int kgov_resolve(const char **names, int n, FILE *diag, struct sim_error *err)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct cpuidle_governor *g;

		if (!kgov_is_path(names[i]))
			continue;
		if (kgov_load(names[i], diag, &g, NULL, err))
			return -1;
		names[i] = g->name;
	}
	return 0;
}
