// SPDX-License-Identifier: GPL-2.0-only
/*
 * snap_read.c - reading a sysfs snapshot: a directory, or a .tar / .tar.gz read whole into
 * memory with libarchive, its files found by logical path (sim/machine/snap_int.h).
 *
 * Layouts (docs/machines.md, "Your own machine"), tried in this order at the top of the
 * directory or archive:
 *  - sys/devices/system/cpu/... (with sys/module/... and sys/devices/cpu_core/cpus): what
 *    scripts/snapshot.sh writes; a copy of /, in effect;
 *  - devices/system/cpu/...: a copy of /sys;
 *  - cpu0/..., online: a copy of /sys/devices/system/cpu itself (the directory
 *    /sys/devices/system/cpu of the running machine reads its module parameters and hybrid
 *    CPU lists from /sys as well);
 *  - an archive whose members all sit under one directory is read as that directory.
 *
 * An archive is checked as it is read, though nothing is ever written out of it: a member
 * with an absolute name or a ".." component, a link that leads out of it, a member over
 * member_max_bytes or a device or FIFO is an error naming it, as are more than max_members
 * members. A directory's files may not be links out of it either (realpath()).
 */
#define _XOPEN_SOURCE 700 /* realpath() */
#include "sim/machine/snap_int.h"
#include "sim/base/alloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SNAP_MAX_MAPS 3
#define SNAP_MAX_HOPS 8

struct snap_member {
	char *path;  /* normalised: no leading "./", no "." or ".." components */
	char *data;  /* NUL-terminated; NULL for a link */
	size_t len;
	char *link;  /* a symbolic or hard link's target, normalised; NULL for a file */
};

/* Logical paths starting with lpre live at apre + the rest. */
struct snap_map {
	const char *lpre;
	char apre[PATH_MAX];
};

struct snap {
	const char *label; /* the path as the user gave it */
	bool is_dir;
	char root[PATH_MAX]; /* a directory's real path */
	struct snap_map map[SNAP_MAX_MAPS];
	int nr_maps;
	struct snap_member *m; /* an archive's members, sorted by path */
	size_t nr, cap;
	size_t member_max;
	char *buf; /* a directory file's content, member_max + 1 bytes */
};

/* ---- names ---- */

/*
 * Normalise a relative name in place: drop "." and empty components; ".." pops one (fails,
 * returning -1, if there is none to pop, or if `allow_dotdot` is false).
 */
static int normalise(char *p, bool allow_dotdot)
{
	char *out = p, *in = p;

	while (*in) {
		size_t n = strcspn(in, "/");

		if ((n == 1 && in[0] == '.') || n == 0) {
			/* skip */
		} else if (n == 2 && in[0] == '.' && in[1] == '.') {
			if (!allow_dotdot || out == p)
				return -1;
			while (out > p && out[-1] != '/')
				out--;
			if (out > p)
				out--;
		} else {
			if (out > p)
				*out++ = '/';
			memmove(out, in, n);
			out += n;
		}
		in += n;
		in += *in == '/';
	}
	*out = '\0';
	return 0;
}

/* The actual path of a logical one, "" if no layout holds it. */
static void actual(const struct snap *s, const char *logical, char *buf, size_t n)
{
	for (int i = 0; i < s->nr_maps; i++) {
		size_t k = strlen(s->map[i].lpre);

		if (!strncmp(logical, s->map[i].lpre, k) && (logical[k] == '/' || !logical[k])) {
			snprintf(buf, n, "%s%s%s", s->map[i].apre,
				 s->map[i].apre[0] && logical[k] ? "/" : "",
				 logical[k] ? logical + k + 1 : "");
			return;
		}
	}
	snprintf(buf, n, "%s", "");
}

const char *snap_where(const struct snap *s, const char *logical, char *buf, size_t n)
{
	char a[PATH_MAX];

	actual(s, logical, a, sizeof(a));
	if (!a[0])
		snprintf(buf, n, "%s/%s", s->label, logical);
	else if (a[0] == '/')
		snprintf(buf, n, "%s", a);
	else
		snprintf(buf, n, "%s%s%s", s->label, s->label[strlen(s->label) - 1] == '/' ? "" : "/",
			 a);
	return buf;
}

/* ---- an archive ---- */

static int member_cmp(const void *a, const void *b)
{
	return strcmp(((const struct snap_member *)a)->path, ((const struct snap_member *)b)->path);
}

/* The first member whose path is >= key. */
static size_t lower_bound(const struct snap *s, const char *key)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->m[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct snap_member *find_member(const struct snap *s, const char *path)
{
	size_t i = lower_bound(s, path);

	return i < s->nr && !strcmp(s->m[i].path, path) ? &s->m[i] : NULL;
}

/* A member under directory `dir` ("" : any member). */
static bool has_under(const struct snap *s, const char *dir)
{
	char key[PATH_MAX];
	size_t i;

	if (!dir[0])
		return s->nr > 0;
	snprintf(key, sizeof(key), "%s/", dir);
	i = lower_bound(s, key);
	return i < s->nr && !strncmp(s->m[i].path, key, strlen(key));
}

static int member_error(const struct snap *s, const char *name, struct sim_error *err,
			const char *what)
{
	char where[PATH_MAX + 64];

	snprintf(where, sizeof(where), "%s/%s", s->label, name);
	return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0, "%s", what);
}

/* A link's target as a member path: relative to the link's directory, never out of it. */
static int link_target(const struct snap *s, const char *name, const char *target, bool hard,
		       char **out, struct sim_error *err)
{
	char t[PATH_MAX * 2];
	const char *slash = strrchr(name, '/');

	if (target[0] == '/')
		return member_error(s, name, err,
				    "a link to an absolute path: a snapshot holds only its own files");
	if (hard) /* a hard link names a member of the archive */
		snprintf(t, sizeof(t), "%s", target);
	else
		snprintf(t, sizeof(t), "%.*s%s%s", slash ? (int)(slash - name) : 0, name,
			 slash ? "/" : "", target);
	if (normalise(t, true) || !t[0])
		return member_error(s, name, err,
				    "a link that points out of the snapshot (through ..)");
	*out = sim_strdup(t);
	return *out ? 0 : sim_error_nomem(err, s->label);
}

/* Read one entry's data, at most member_max bytes. */
static int read_data(struct snap *s, struct archive *a, const char *name, struct snap_member *mb,
		     struct sim_error *err)
{
	size_t cap = s->member_max + 1;
	la_ssize_t k;

	mb->data = sim_malloc(cap + 1);
	if (!mb->data)
		return sim_error_nomem(err, s->label);
	while ((k = archive_read_data(a, mb->data + mb->len, cap - mb->len)) > 0) {
		mb->len += (size_t)k;
		if (mb->len > s->member_max) {
			char msg[128];

			snprintf(msg, sizeof(msg),
				 "member is over %zu bytes: sysfs files are a line or two",
				 s->member_max);
			return member_error(s, name, err, msg);
		}
	}
	if (k < 0)
		return sim_error_set(err, SIM_ERR_INPUT, s->label, 0, 0, "%s: %s", name,
				     archive_error_string(a));
	mb->data[mb->len] = '\0';
	return 0;
}

/* One archive entry: a file or link to keep, a directory to skip, anything else an error. */
static int add_entry(struct snap *s, struct archive *a, struct archive_entry *e,
		     struct sim_error *err)
{
	const char *raw = archive_entry_pathname(e);
	unsigned int type = archive_entry_filetype(e);
	struct snap_member mb = {0};
	char name[PATH_MAX];

	if (!raw || !raw[0] || strlen(raw) >= sizeof(name))
		return sim_error_set(err, SIM_ERR_INPUT, s->label, 0, 0,
				     "an archive member with no name or a name too long");
	if (raw[0] == '/')
		return member_error(s, raw, err,
				    "an absolute member name: a snapshot's members are relative "
				    "(sys/devices/system/cpu/...)");
	snprintf(name, sizeof(name), "%s", raw);
	if (normalise(name, false))
		return member_error(s, raw, err, "a member name with a '..' component");
	if (type == AE_IFDIR || !name[0])
		return 0;
	if (s->nr >= s->cap && sim_grow((void **)&s->m, &s->cap, s->nr + 1, sizeof(*s->m)))
		return sim_error_nomem(err, s->label);
	mb.path = sim_strdup(name);
	if (!mb.path)
		return sim_error_nomem(err, s->label);
	s->m[s->nr++] = mb; /* owned by s from here, freed by snap_close() */
	if (archive_entry_hardlink(e))
		return link_target(s, raw, archive_entry_hardlink(e), true, &s->m[s->nr - 1].link,
				   err);
	if (type == AE_IFLNK)
		return link_target(s, raw, archive_entry_symlink(e) ? archive_entry_symlink(e) : "",
				   false, &s->m[s->nr - 1].link, err);
	if (type != AE_IFREG)
		return member_error(s, raw, err,
				    "a device, FIFO or socket: a snapshot holds regular files");
	if (archive_entry_size_is_set(e) && archive_entry_size(e) > (la_int64_t)s->member_max) {
		char msg[128];

		snprintf(msg, sizeof(msg),
			 "member is %lld bytes, over %zu: sysfs files are a line or two",
			 (long long)archive_entry_size(e), s->member_max);
		return member_error(s, raw, err, msg);
	}
	return read_data(s, a, raw, &s->m[s->nr - 1], err);
}

static int read_archive(struct snap *s, const char *path, const struct snapshot_limits *lim,
			struct sim_error *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	size_t entries = 0;
	int rc = 0, r;

	if (!a)
		return sim_error_nomem(err, path);
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 16384) != ARCHIVE_OK) {
		rc = sim_error_set(err, errno == ENOENT ? SIM_ERR_IO : SIM_ERR_INPUT, path, 0, 0,
				   "cannot read the snapshot archive: %s",
				   archive_error_string(a) ? archive_error_string(a) : strerror(errno));
		archive_read_free(a);
		return rc;
	}
	while (!rc && (r = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
		if (r < ARCHIVE_WARN) {
			rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
					   "not a readable tar archive: %s",
					   archive_error_string(a));
			break;
		}
		if (++entries > lim->max_members) {
			rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
					   "more than %zu members: a sysfs snapshot has a few per "
					   "CPU and idle state (is this a snapshot?)",
					   lim->max_members);
			break;
		}
		rc = add_entry(s, a, e, err);
	}
	archive_read_free(a);
	if (!rc && s->nr > 1) /* an empty archive has no array: qsort(NULL) is undefined */
		qsort(s->m, s->nr, sizeof(*s->m), member_cmp);
	for (size_t i = 1; !rc && i < s->nr; i++)
		if (!strcmp(s->m[i].path, s->m[i - 1].path))
			rc = member_error(s, s->m[i].path, err,
					  "a member that appears twice in the archive");
	return rc;
}

/* ---- layouts ---- */

static void add_map(struct snap *s, const char *lpre, const char *apre)
{
	s->map[s->nr_maps].lpre = lpre;
	snprintf(s->map[s->nr_maps].apre, sizeof(s->map[0].apre), "%s", apre);
	s->nr_maps++;
}

/* Does the actual path (relative to the top of the snapshot) exist, as file or directory? */
static bool exists_actual(const struct snap *s, const char *a)
{
	char full[PATH_MAX * 2];
	struct stat st;

	if (!s->is_dir)
		return find_member(s, a) || has_under(s, a);
	snprintf(full, sizeof(full), "%s%s%s", a[0] == '/' ? "" : s->root, a[0] == '/' ? "" : "/", a);
	return stat(full, &st) == 0;
}

static int find_layout(struct snap *s, struct sim_error *err)
{
	char top[PATH_MAX] = "", p[PATH_MAX + 32];

	for (int tries = 0; tries < 2; tries++) {
		const char *sep = top[0] ? "/" : "";

		snprintf(p, sizeof(p), "%s%s%s", top, sep, SNAP_CPU_DIR);
		if (exists_actual(s, p)) {
			snprintf(p, sizeof(p), "%s%ssys", top, sep);
			add_map(s, "sys", p);
			return 0;
		}
		snprintf(p, sizeof(p), "%s%sdevices/system/cpu", top, sep);
		if (exists_actual(s, p)) {
			add_map(s, "sys", top);
			return 0;
		}
		snprintf(p, sizeof(p), "%s%scpu0", top, sep);
		if (exists_actual(s, p)) {
			add_map(s, SNAP_CPU_DIR, top);
			/* the running machine's own directory: the rest of /sys is there too */
			if (s->is_dir && !strcmp(s->root, "/sys/devices/system/cpu"))
				add_map(s, "sys", "/sys");
			return 0;
		}
		/* an archive of one directory: look inside it */
		if (s->is_dir || !s->nr || !strchr(s->m[0].path, '/'))
			break;
		/* sorted, so the first and last members bound all others */
		snprintf(top, sizeof(top), "%.*s", (int)strcspn(s->m[0].path, "/"), s->m[0].path);
		if (find_member(s, top) || strncmp(s->m[s->nr - 1].path, top, strlen(top)) ||
		    s->m[s->nr - 1].path[strlen(top)] != '/')
			break;
	}
	return sim_error_set(err, SIM_ERR_INPUT, s->label, 0, 0,
			     "not a sysfs snapshot: no sys/devices/system/cpu, devices/system/cpu "
			     "or cpu0 at its top (make one with scripts/snapshot.sh)");
}

int snap_open(struct snap **out, const char *path, const struct snapshot_limits *lim,
	      struct sim_error *err)
{
	struct snap *s = sim_calloc(1, sizeof(*s));
	struct stat st;
	int rc;

	*out = NULL;
	if (!s)
		return sim_error_nomem(err, path);
	s->label = path;
	s->member_max = lim->member_max_bytes;
	if (stat(path, &st)) {
		rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open the snapshot: %s",
				   strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		s->is_dir = true;
		s->buf = sim_malloc(s->member_max + 2);
		rc = !s->buf				? sim_error_nomem(err, path)
		     : !realpath(path, s->root) ? sim_error_set(err, SIM_ERR_IO, path, 0, 0,
							       "cannot resolve the snapshot "
							       "directory: %s",
							       strerror(errno))
						: 0;
	} else {
		rc = read_archive(s, path, lim, err);
	}
	if (!rc)
		rc = find_layout(s, err);
	if (rc) {
		snap_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void snap_close(struct snap *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		sim_free(s->m[i].path);
		sim_free(s->m[i].data);
		sim_free(s->m[i].link);
	}
	sim_free(s->m);
	sim_free(s->buf);
	sim_free(s);
}

/* ---- reading a file ---- */

bool snap_has(const struct snap *s, const char *logical)
{
	char a[PATH_MAX];

	actual(s, logical, a, sizeof(a));
	return a[0] && exists_actual(s, a);
}

static int read_dir_file(struct snap *s, const char *a, const char *where, bool required,
			 const char **text, struct sim_error *err)
{
	char full[PATH_MAX * 2], real[PATH_MAX];
	size_t len = 0, rl = strlen(s->root);
	ssize_t k;
	int fd;

	snprintf(full, sizeof(full), "%s%s%s", a[0] == '/' ? "" : s->root, a[0] == '/' ? "" : "/", a);
	if (!realpath(full, real)) {
		if (errno == ENOENT && !required)
			return 1;
		return sim_error_set(err, errno == ENOENT ? SIM_ERR_INPUT : SIM_ERR_IO, where, 0, 0,
				     "%s", errno == ENOENT ? "missing from the snapshot"
							   : strerror(errno));
	}
	/* the files of a copy stay in it; the running machine's /sys is read where it is */
	if (a[0] != '/' && (strncmp(real, s->root, rl) || (real[rl] != '/' && real[rl])))
		return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0,
				     "a link that points out of the snapshot, to %s", real);
	fd = open(real, O_RDONLY);
	if (fd < 0)
		return sim_error_set(err, SIM_ERR_IO, where, 0, 0, "cannot open: %s",
				     strerror(errno));
	while ((k = read(fd, s->buf + len, s->member_max + 1 - len)) > 0 &&
	       (len += (size_t)k) <= s->member_max)
		;
	close(fd);
	if (k < 0)
		return sim_error_set(err, SIM_ERR_IO, where, 0, 0, "cannot read: %s", strerror(errno));
	if (len > s->member_max)
		return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0,
				     "over %zu bytes: sysfs files are a line or two", s->member_max);
	s->buf[len] = '\0';
	*text = s->buf;
	return 0;
}

int snap_read(struct snap *s, const char *logical, bool required, const char **text,
	      struct sim_error *err)
{
	char a[PATH_MAX], where[PATH_MAX + 64];
	const struct snap_member *mb;
	int hops;

	actual(s, logical, a, sizeof(a));
	snap_where(s, logical, where, sizeof(where));
	if (!a[0]) {
		if (!required)
			return 1;
		return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0, "missing from the snapshot");
	}
	if (s->is_dir)
		return read_dir_file(s, a, where, required, text, err);
	for (hops = 0, mb = find_member(s, a); mb && mb->link && hops < SNAP_MAX_HOPS; hops++)
		mb = find_member(s, mb->link);
	if (mb && mb->link)
		return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0,
				     "more than %d links in a row", SNAP_MAX_HOPS);
	if (!mb) {
		if (!required)
			return 1;
		return sim_error_set(err, SIM_ERR_INPUT, where, 0, 0, "missing from the snapshot");
	}
	*text = mb->data;
	return 0;
}
