/* SPDX-License-Identifier: GPL-2.0-only */
/* ftctl genkey and ftctl keyid: make a cluster key, name one without showing it. */
#ifndef FTCTL_KEYS_H
#define FTCTL_KEYS_H

#include <stdio.h>

extern const char ftctl_genkey_usage[];
extern const char ftctl_keyid_usage[];

int ftctl_cmd_genkey(int argc, char **argv);
int ftctl_cmd_keyid(int argc, char **argv);

/* The ids of every key in text at in (lines of 32 hex digits) to out; 0 or 2. */
int ftctl_keyid_stream(FILE *in, FILE *out, FILE *err);

#endif
