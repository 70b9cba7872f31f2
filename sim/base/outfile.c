// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - write to a temporary, then rename.
 *
 * The file gets the mode any program's output gets: a new file 0666 less the umask (the
 * temporary is created with open(O_CREAT | O_EXCL, 0666), so the kernel applies the umask
 * and any default ACL, which mkstemp()'s 0600 would not); a file replaced keeps its mode.
 */
#include "sim/base/outfile.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TMP_SUFFIX ".tmp.XXXXXX"

/*
 * The temporaries being written, for the signal handler. This is the one piece of
 * process-wide mutable state in idlesim, against the rule that everything hangs off a
 * context: a signal handler receives no context. It is kept to a few fixed slots, each a
 * copy of the path and a state: a thread claims a free slot atomically (several threads may
 * write outputs at once), copies the path, then marks it ready; the handler unlinks only
 * ready slots and calls only unlink() and raise(), which are async-signal-safe. A temporary that finds no free slot (more than PENDING_MAX written at
 * once) is still removed on every way out but a signal.
 */
#define PENDING_MAX 4

enum { SLOT_FREE, SLOT_CLAIMED, SLOT_READY };

static struct {
	atomic_int state; /* lock-free on every target idlesim builds for (checked below) */
	char path[PATH_MAX];
} pending[PENDING_MAX];

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomic int");

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < PENDING_MAX; i++)
		if (atomic_load(&pending[i].state) == SLOT_READY)
			unlink(pending[i].path);
	/* SA_RESETHAND restored the default action: this terminates, once the handler returns */
	raise(sig);
}

/* Install the handler, except for signals the process was started ignoring (nohup, &). */
static void catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < SIM_ARRAY_SIZE(caught); i++)
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
}

/* List tmp for the handler; returns its slot + 1, or 0 if none is free. */
static int pending_add(const char *tmp)
{
	size_t n = strlen(tmp);
	int i;

	if (n >= PATH_MAX)
		return 0;
	for (i = 0; i < PENDING_MAX; i++) {
		int expected = SLOT_FREE;

		if (!atomic_compare_exchange_strong(&pending[i].state, &expected, SLOT_CLAIMED))
			continue;
		memcpy(pending[i].path, tmp, n + 1);
		atomic_store(&pending[i].state, SLOT_READY);
		catch_signals();
		return i + 1;
	}
	return 0;
}

/* Once the temporary is renamed or removed. */
static void pending_drop(struct outfile *o)
{
	if (o->slot)
		atomic_store(&pending[o->slot - 1].state, SLOT_FREE);
	o->slot = 0;
}

/*
 * Create tmp, whose last six characters are replaced by random ones until the name is new,
 * as mkstemp() does, but with the given mode. Returns the descriptor, or -1 with errno.
 */
static int create_tmp(char *tmp, mode_t mode)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *x = tmp + strlen(tmp) - 6;
	struct timespec ts;
	uint64_t seed;
	int attempt, i, fd;

	clock_gettime(CLOCK_REALTIME, &ts);
	seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^
	       (uint64_t)(uintptr_t)tmp;
	for (attempt = 0; attempt < 1000; attempt++) {
		for (i = 0; i < 6; i++)
			x[i] = chars[sim_splitmix64(&seed) % (sizeof(chars) - 1)];
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* A destination that is not a regular file (a device such as /dev/null, a FIFO) is
 * written in place: renaming a temporary over it would replace the device. */
static int open_special(struct outfile *o, const char *path, struct sim_error *err)
{
	o->path = sim_strdup(path);
	if (!o->path)
		return sim_error_nomem(err, path);
	o->f = fopen(path, "w");
	if (!o->f) {
		int e = errno;

		outfile_abort(o);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open output file: %s",
				     strerror(e));
	}
	o->special = true;
	return 0;
}

/*
 * A destination that is a symbolic link is written through, as cp and sort -o do: the file
 * at the end of its chain of links is replaced atomically, with the temporary in that file's
 * directory, and the link stays a link. A link to nothing is refused, as cp refuses
 * to write through a dangling one. Returns the path to write (malloc'd), or NULL with err
 * set.
 */
static char *destination(const char *path, struct sim_error *err)
{
	char *p = sim_strdup(path), *q, target[PATH_MAX];
	struct stat st;
	ssize_t n;
	int hops;

	if (!p) {
		sim_error_nomem(err, path);
		return NULL;
	}
	/* Follow the chain of links, as the kernel would, up to its limit of 40. */
	for (hops = 0; !lstat(p, &st) && S_ISLNK(st.st_mode); hops++) {
		const char *slash = strrchr(p, '/');
		size_t dir;

		n = readlink(p, target, sizeof(target) - 1);
		if (hops == 40 || n < 0) {
			sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot follow the symbolic link: %s",
				      hops == 40 ? strerror(ELOOP) : strerror(errno));
			sim_free(p);
			return NULL;
		}
		target[n] = '\0';
		dir = slash && target[0] != '/' ? (size_t)(slash - p) + 1 : 0;
		q = sim_malloc(dir + (size_t)n + 1);
		if (!q) {
			sim_free(p);
			sim_error_nomem(err, path);
			return NULL;
		}
		memcpy(q, p, dir);
		memcpy(q + dir, target, (size_t)n + 1);
		sim_free(p);
		p = q;
	}
	if (hops && stat(p, &st)) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0,
			      "a symbolic link to nothing (%s: %s); not written through it", p,
			      strerror(errno));
		sim_free(p);
		return NULL;
	}
	return p;
}

int outfile_open(struct outfile *o, const char *path, struct sim_error *err)
{
	struct stat st;
	bool replaces;
	char *dest;
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!*path)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "the output file name is empty (- is standard output)");
	dest = destination(path, err);
	if (!dest)
		return -1;
	replaces = stat(dest, &st) == 0;
	if (replaces && !S_ISREG(st.st_mode)) {
		int rc = open_special(o, dest, err);

		sim_free(dest);
		return rc;
	}
	/* Files are made at dest; messages name path, as the user gave it. */
	n = strlen(dest);
	o->path = dest;
	o->tmp = sim_malloc(n + sizeof(TMP_SUFFIX));
	if (!o->tmp) {
		outfile_abort(o);
		return sim_error_nomem(err, path);
	}
	memcpy(o->tmp, dest, n);
	memcpy(o->tmp + n, TMP_SUFFIX, sizeof(TMP_SUFFIX));
	/* A replaced file's mode is set exactly (the umask does not apply to fchmod). */
	fd = create_tmp(o->tmp, replaces ? 0600 : 0666);
	if (fd >= 0 && replaces && fchmod(fd, st.st_mode & 07777)) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		errno = e;
		fd = -1;
	}
	if (fd < 0) {
		int e = errno;

		sim_free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot create output file: %s",
				     strerror(e));
	}
	o->slot = pending_add(o->tmp);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		outfile_abort(o);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open output file");
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct sim_error *err)
{
	int rc = 0;

	if (o->special) {
		if (fflush(o->f) || ferror(o->f))
			rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s",
					   strerror(errno));
		if (fclose(o->f) && !rc)
			rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s",
					   strerror(errno));
		sim_free(o->path);
		memset(o, 0, sizeof(*o));
		return rc;
	}

	if (!o->path) {
		if (fflush(stdout) || ferror(stdout))
			rc = sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
		memset(o, 0, sizeof(*o));
		return rc;
	}
	if (fflush(o->f) || ferror(o->f)) {
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s", strerror(errno));
	}
	if (fclose(o->f) && !rc)
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s", strerror(errno));
	o->f = NULL;
	if (!rc && rename(o->tmp, o->path))
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "cannot rename %s: %s", o->tmp,
				   strerror(errno));
	if (rc)
		unlink(o->tmp);
	pending_drop(o);
	sim_free(o->tmp);
	sim_free(o->path);
	memset(o, 0, sizeof(*o));
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->special) {
		sim_free(o->path);
		memset(o, 0, sizeof(*o));
		return;
	}
	if (o->tmp) {
		unlink(o->tmp);
		pending_drop(o);
		sim_free(o->tmp);
	}
	sim_free(o->path);
	memset(o, 0, sizeof(*o));
}

int outfile_fail(struct outfile *o, struct sim_error *err)
{
	int e = errno;

	if (err->code == SIM_OK || err->code == SIM_ERR_IO) {
		if (o->f && fflush(o->f))
			e = errno;
		sim_error_clear(err);
		sim_error_set(err, SIM_ERR_IO, o->path ? o->path : "<stdout>", 0, 0,
			      "write error: %s", e ? strerror(e) : "unknown reason");
	}
	outfile_abort(o);
	return -1;
}
