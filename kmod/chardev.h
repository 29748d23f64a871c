/* SPDX-License-Identifier: GPL-2.0 */
/* /dev/ftdetect: event records, poll, rank registration, the mmap'd status table. */
#ifndef FTD_CHARDEV_H
#define FTD_CHARDEV_H

int ftd_chardev_init(void);
void ftd_chardev_exit(void);

#endif
