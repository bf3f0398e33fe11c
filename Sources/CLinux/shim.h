#ifndef TIMETRACK_CLINUX_SHIM_H
#define TIMETRACK_CLINUX_SHIM_H

#include <spawn.h>
#include <sys/prctl.h>

/* glibc 2.34+ (Debian 12 has 2.36); spawn.h declares it only under _GNU_SOURCE. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* prctl(2) is variadic, so Swift cannot call it: one wrapper per use. */

/* Orphaned descendants of this process's children are re-parented to it, not to init, so a
   plugin's daemons can be found and killed after the plugin is gone. 0 on success. */
static inline int timetrack_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* POSIX_SPAWN_SETSID (glibc 2.26+), which spawn.h defines only under _GNU_SOURCE: the child
   starts a session of its own (and its own process group), with no controlling terminal. */
static inline short timetrack_spawn_setsid_flag(void) {
    return 0x80;
}

/* The child closes every descriptor from `from` up before it runs. 0 on success. */
static inline int timetrack_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#endif
