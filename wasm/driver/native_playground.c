/* native_playground.c - the native twin's per-game directory.
 *
 * Each process plays in a fresh temporary directory (level files, an empty
 * record) holding links to the game data, removed at exit, so no bones or
 * leftovers from another game can change this one. */
#ifndef __EMSCRIPTEN__
#include "hack.h"
#include "nnh_state.h"
#include "nnh_io.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char playground[256];

static void remove_playground(void)
{
    DIR *dir;
    struct dirent *entry;
    char path[512];
    if (!playground[0]) return;
    if ((dir = opendir(playground)) != NULL) {
        while ((entry = readdir(dir)) != NULL) {
            if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", playground, entry->d_name);
            unlink(path);
        }
        closedir(dir);
    }
    rmdir(playground);
    playground[0] = 0;
}

static void on_signal(int sig)
{
    remove_playground();
    _exit(128 + sig);
}

/* The data directory: $NNH_DATA_DIR, else data/ beside the executable. */
static void data_dir(char *out, size_t cap)
{
    const char *env = getenv("NNH_DATA_DIR");
    ssize_t n;
    char *slash;
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return;
    }
    n = readlink("/proc/self/exe", out, cap - 8);
    if (n <= 0) { snprintf(out, cap, "data"); return; }
    out[n] = 0;
    slash = strrchr(out, '/');
    if (slash) strcpy(slash + 1, "data");
}

/* chdir into a fresh game directory holding links to the game data.
 * Returns 0, or -1 with a diagnostic on stderr. */
int nnh_playground_enter(void)
{
    static const char *const linked[] = { "nhdat", "sysconf" };
    static const char *const empty[] = { "record", "logfile", "xlogfile", "perm" };
    const char *tmp = getenv("TMPDIR");
    char data[400], from[512], to[512];
    int i, fd;

    data_dir(data, sizeof data);
    snprintf(playground, sizeof playground, "%s/nnh-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(playground)) { perror("mkdtemp"); playground[0] = 0; return -1; }
    atexit(remove_playground);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGPIPE, on_signal);
    for (i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/%s", data, linked[i]);
        snprintf(to, sizeof to, "%s/%s", playground, linked[i]);
        if (access(from, R_OK) || symlink(from, to)) {
            fprintf(stderr, "nhdriver: missing game data %s\n", from);
            return -1;
        }
    }
    for (i = 0; i < 4; i++) {
        snprintf(to, sizeof to, "%s/%s", playground, empty[i]);
        if ((fd = open(to, O_CREAT | O_WRONLY, 0600)) >= 0) close(fd);
    }
    return chdir(playground);
}

/* Copy one directory entry: symlinks as links, files byte for byte. */
static int copy_entry(const char *from, const char *to)
{
    struct stat st;
    char target[512], block[8192];
    ssize_t n;
    int in, out, ok = 0;
    if (lstat(from, &st)) return -1;
    if (S_ISLNK(st.st_mode)) {
        n = readlink(from, target, sizeof target - 1);
        if (n < 0) return -1;
        target[n] = 0;
        return symlink(target, to);
    }
    if ((in = open(from, O_RDONLY)) < 0) return -1;
    if ((out = open(to, O_CREAT | O_WRONLY | O_TRUNC, st.st_mode & 0777)) < 0) { close(in); return -1; }
    while ((n = read(in, block, sizeof block)) > 0)
        if (write(out, block, (size_t) n) != n) { ok = -1; break; }
    if (n < 0) ok = -1;
    close(in);
    close(out);
    return ok;
}

int nnh_playground_fork(void)
{
    const char *tmp = getenv("TMPDIR");
    char fresh[256], from[512], to[512];
    DIR *dir;
    struct dirent *entry;
    snprintf(fresh, sizeof fresh, "%s/nnh-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fresh)) return -1;
    if ((dir = opendir(playground)) == NULL) return -1;
    while ((entry = readdir(dir)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
        snprintf(from, sizeof from, "%s/%s", playground, entry->d_name);
        snprintf(to, sizeof to, "%s/%s", fresh, entry->d_name);
        if (copy_entry(from, to)) { closedir(dir); return -1; }
    }
    closedir(dir);
    /* From here the child's exit removes its own copy, never the parent's. */
    snprintf(playground, sizeof playground, "%s", fresh);
    return chdir(playground);
}

#endif
