#define _POSIX_C_SOURCE 200809L /* fork, waitpid, setrlimit, strsignal under -std=c11 */
/* A trial import in a child process for the formats whose assimp reader no narrow check can make
 * safe (skinned_ctx.h). assimp 5.2.5's FBX and COLLADA readers trust counts and indices deep in
 * their files: a <vertex_weights> count one short of the mesh's positions made the COLLADA reader
 * index past its array (a SEGV), an accessor past its array an ai_assert that aborts the process,
 * a corrupt zlib stream in a binary FBX leaks its inflate state (all found by fuzz_skinned within
 * minutes). Checking what each reader trusts would be writing both readers again. So the file is
 * imported first by a forked child that may crash, loop or exhaust its memory without harm; only
 * when it imports cleanly does this process import it (a refusal comes back through a pipe in
 * assimp's words). The price is a second import and a fork (the child touches nothing but assimp
 * and the bytes, and leaves by _exit). */
#include "base/error.h"
#include "formats/skinned_ctx.h"

#include <assimp/cimport.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define GN_SK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GN_SK_ASAN 1
#endif
#endif

#ifdef GN_SK_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#include <fcntl.h>

#define GN_SK_TRIAL_SECONDS 60         /* a file assimp takes longer over is refused */
#define GN_SK_TRIAL_BYTES (8ull << 30) /* the child's address space (not under ASan: its shadow) */
#define GN_SK_TRIAL_REFUSED 2          /* the child's exit status when assimp refused the file */

gn_result gn_sk_trial_import(const gn_sk_trial *t, const char *name, gn_error *err)
{
    int fd[2]; /* the child's refusal in assimp's words */
    if (pipe(fd) != 0)
        return gn_fail(err, GN_ERROR_IO, "%s: cannot make a pipe for a trial import: %s", name,
                       strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return gn_fail(err, GN_ERROR_IO, "%s: cannot fork to try assimp's %s reader first: %s", name,
                       gn_skinned_format_name(t->format), strerror(errno));
    }
    if (pid == 0) {
        close(fd[0]);
        /* the child's crash is the parent's to report: no sanitizer report or libFuzzer artifact
         * from it (fuzz_skinned runs this), nothing on the terminal */
#ifdef GN_SK_ASAN
        __sanitizer_set_death_callback(NULL);
#endif
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDERR_FILENO), dup2(null, STDOUT_FILENO);
#ifndef GN_SK_ASAN
        struct rlimit lim = {GN_SK_TRIAL_BYTES, GN_SK_TRIAL_BYTES};
        setrlimit(RLIMIT_AS, &lim);
#endif
        /* SIGALRM's default action ends a reader that loops (not a handler the host installed) */
        signal(SIGALRM, SIG_DFL);
        alarm(GN_SK_TRIAL_SECONDS);
        const struct aiScene *ai =
            t->data ? aiImportFileFromMemory((const char *)t->data, (unsigned)t->size, t->flags, t->hint)
                    : aiImportFile(t->path, t->flags);
        if (!ai) {
            const char *why = aiGetErrorString();
            size_t n = why ? strlen(why) : 0;
            if (n && write(fd[1], why, n < 400 ? n : 400) < 0) _exit(GN_SK_TRIAL_REFUSED);
        }
        _exit(ai ? 0 : GN_SK_TRIAL_REFUSED); /* no atexit handlers, no release: the process ends */
    }
    close(fd[1]);
    char why[401] = {0};
    size_t got_bytes = 0;
    for (ssize_t k; got_bytes < 400 && (k = read(fd[0], why + got_bytes, 400 - got_bytes)) != 0;) {
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) break;
        got_bytes += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (got != pid)
        return gn_fail(err, GN_ERROR_IO, "%s: the trial import's child process was lost: %s", name,
                       strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return GN_OK;
    /* refused: not imported again here (a corrupt zlib stream in a binary FBX leaks assimp's
     * inflate state on the way out) */
    if (WIFEXITED(status) && WEXITSTATUS(status) == GN_SK_TRIAL_REFUSED)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: assimp's %s reader does not take it%s%s", name,
                       gn_skinned_format_name(t->format), got_bytes ? ": " : "", why);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: assimp's %s reader ran past %d s on it; refused", name,
                       gn_skinned_format_name(t->format), GN_SK_TRIAL_SECONDS);
    if (WIFSIGNALED(status))
        return gn_fail(err, GN_ERROR_BAD_DATA,
                       "%s: assimp's %s reader crashed on it (signal %d, %s) in a trial "
                       "import; refused",
                       name, gn_skinned_format_name(t->format), WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
    return gn_fail(err, GN_ERROR_BAD_DATA,
                   "%s: assimp's %s reader failed in a trial import (exit status %d); refused", name,
                   gn_skinned_format_name(t->format), WEXITSTATUS(status));
}
