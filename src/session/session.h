/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every session shares, the work a command starts (session/run.c,
 * matrix.c, bisect*.c): refusing its input in the words the command line
 * uses, and the files and directories it writes, checked before anything
 * runs.  cmd/ calls these too, for the input it refuses itself.
 */
#ifndef ABIWATCH_SESSION_SESSION_H
#define ABIWATCH_SESSION_SESSION_H

/* "abiwatch CMD: message" on stderr and the usage exit status. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Fail before anything runs if path could not be written: its directory
 * must be writable, and the file if it exists.  what ("the snapshot", or
 * NULL) names it in the message.  0, or the usage status. */
int check_writable(const char *cmd, const char *what, const char *path);
/* A directory of results (matrix, bisect), made if missing, that this
 * process can write in.  0, or the usage status. */
int prepare_output_dir(const char *cmd, const char *dir);

#endif
