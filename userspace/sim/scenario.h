/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Failure scenarios: which nodes fail, how, when, and who must learn it.
 *
 *   single     one node crashes (stops sending and receiving)
 *   adjacent   cfg->adjacent consecutive nodes in ring order crash at once
 *   partition  cfg->cut nodes are cut off from the rest (isolated: they
 *              reach nobody; island: they still reach each other). They stay
 *              up: the rest must declare each of them exactly once, and
 *              (isolated) they, hearing nobody, must declare nobody.
 *   proc       a registered rank of one node crashes: PROC_DEAD, spread by
 *              the broadcast with no timeout involved
 *
 * The receivers of a failure are the nodes that are up and not cut off:
 * each must deliver it exactly once.
 */
#ifndef FTD_SIM_SCENARIO_H
#define FTD_SIM_SCENARIO_H

#include "sim/sim.h"

const char *sim_scenario_name(enum sim_scenario sc);
/* -1 if name is not a scenario. */
int sim_scenario_parse(const char *name, enum sim_scenario *sc);

/* How many failures (items) the scenario of cfg causes. */
u32 sim_scenario_failures(const struct sim_config *cfg);

/* Choose the failing nodes, create their items, mark the receivers. */
int sim_scenario_setup(struct sim *s);

/* Make the failure happen, at s->now == s->t_fail. */
void sim_scenario_inject(struct sim *s);

#endif
