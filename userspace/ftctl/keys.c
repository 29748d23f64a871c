// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftctl genkey: a new cluster key from the kernel's random generator, as
 * 32 hex digits on a line (like wg genkey), for "key =" or a keyfile.
 * ftctl keyid: the id of each key read on standard input, the same id
 * that ftctl show, ftstat and apply print, so that an admin can tell which
 * key a node runs with without the key ever being shown.
 */
#define _GNU_SOURCE
#include "ftctl/keys.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <linux/ftdetect.h>

#include "common/keyid.h"
#include "ftctl/config.h"

const char ftctl_genkey_usage[] =
	"Usage: ftctl genkey\n"
	"\n"
	"Print a new random cluster key: 32 hex digits (16 bytes from the kernel's\n"
	"random generator). Every node of a cluster needs the same key, as\n"
	"'key = KEY' in the config file or as the first line of its keyfile:\n"
	"\n"
	"  (umask 077; ftctl genkey > /etc/ftdetect/cluster.key)\n"
	"\n"
	"The shell creates that file before ftctl runs: the umask is what keeps\n"
	"it private (ftctl apply refuses a keyfile others can read).\n";

const char ftctl_keyid_usage[] =
	"Usage: ftctl keyid < KEYFILE\n"
	"\n"
	"Print the id of each key read on standard input (one key of 32 hex digits\n"
	"per line; blank lines and # comments are skipped): the 16 hex digits that\n"
	"ftctl show and ftstat print for the keys a node holds and uses. The id\n"
	"names a key without revealing it.\n";

int ftctl_cmd_genkey(int argc, char **argv)
{
	uint8_t key[FTD_KEY_LEN];
	size_t got = 0;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(ftctl_genkey_usage, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "%s: genkey: unexpected argument '%s'\nTry 'ftctl genkey --help'.\n",
			program_invocation_short_name, argv[1]);
		return 2;
	}
	while (got < sizeof(key)) {
		ssize_t n = getrandom(key + got, sizeof(key) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "%s: genkey: getrandom: %s\n",
				program_invocation_short_name, strerror(errno));
			return 1;
		}
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(key); i++)
		printf("%02x", key[i]);
	putchar('\n');
	explicit_bzero(key, sizeof(key));
	return fflush(stdout) ? 1 : 0;
}

int ftctl_keyid_stream(FILE *in, FILE *out, FILE *err)
{
	char *line = NULL, *s, *end;
	unsigned int nr = 0, keys = 0;
	size_t cap = 0;
	int ret = 0;

	while (getline(&line, &cap, in) >= 0) {
		uint8_t key[FTD_KEY_LEN];
		char id[FTU_KEYID_BUFSZ];

		nr++;
		s = line + strspn(line, " \t");
		end = s + strcspn(s, "#\r\n");
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == s)
			continue;
		*end = '\0';
		if (ftctl_parse_key(s, key)) {
			fprintf(err, "%s: keyid: line %u: not a key (expected 32 hex digits)\n",
				program_invocation_short_name, nr);
			ret = 2;
			continue;
		}
		fprintf(out, "%s\n", ftu_key_id_format(ftu_key_id(key), id));
		explicit_bzero(key, sizeof(key));
		keys++;
	}
	if (line)
		explicit_bzero(line, cap);
	free(line);
	if (!keys && !ret) {
		fprintf(err, "%s: keyid: no key on standard input\n", program_invocation_short_name);
		ret = 2;
	}
	return ret;
}

int ftctl_cmd_keyid(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(ftctl_keyid_usage, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "%s: keyid: unexpected argument '%s' (the keys are read on "
			"standard input)\nTry 'ftctl keyid --help'.\n",
			program_invocation_short_name, argv[1]);
		return 2;
	}
	return ftctl_keyid_stream(stdin, stdout, stderr);
}
