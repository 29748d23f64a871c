/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network model: one-way latency (a mean and a jitter distribution),
 * independent loss per frame, and a partition. A frame's fate is drawn when
 * it is sent: lost, cut, or delivered after its latency (frames already in
 * flight when a partition starts still arrive). No bandwidth or queueing
 * model: ftdetect's frames are 64 and 96 bytes, far below any link's
 * capacity at these rates. Frames to a dead node are dropped at arrival.
 *
 * Notice frames are real: the node encodes each with the module's codec
 * into a frame buffer here, shared (reference counted) by the copies sent
 * to each finger, and every receiver decodes its copy. Heartbeats carry only
 * their sequence number in the simulation; their size is that of a real
 * encoded heartbeat.
 */
#ifndef FTD_SIM_NET_H
#define FTD_SIM_NET_H

#include "proto/wire.h"
#include "sim/evq.h"
#include "sim/rng.h"

enum sim_jitter {
	SIM_JITTER_UNIFORM,	/* mean +- jitter, uniform */
	SIM_JITTER_NORMAL,	/* mean + jitter * N(0, 1), at least 0 */
	SIM_JITTER_EXP,		/* mean - jitter + jitter * Exp(1): the mean stays, a tail to the right */
};

enum sim_cut_mode {
	SIM_CUT_ISOLATED,	/* a cut node reaches nobody, not even another cut node */
	SIM_CUT_ISLAND,		/* the cut nodes still reach each other */
};

#define SIM_BROKEN_MAX	4

struct sim_net_config {
	u64 latency_ns;
	u64 jitter_ns;
	enum sim_jitter jitter;
	double loss;		/* probability that a frame is lost, 0..1 */
	/*
	 * Fuzzing (selftests/fuzz/fuzz_sim.c): frames sent from fate_from_ns
	 * on take their fate from these bytes, one each, instead of the loss
	 * model: below SIM_FATE_LOST lost, else delivered (b - SIM_FATE_LOST)
	 * x SIM_FATE_DELAY_NS late. Once they run out, the loss model again.
	 */
	const u8 *fate;
	size_t fate_len;
	u64 fate_from_ns;
	/*
	 * Broken links (tests): every frame between the nodes at the two
	 * positions of a link is lost, both ways, while each still reaches
	 * the others.
	 */
	u32 n_broken;
	u32 broken[SIM_BROKEN_MAX][2];
};

#define SIM_FATE_LOST		32
#define SIM_FATE_DELAY_NS	50000ULL

/*
 * A frame of one notice fits in place; a batch (the uapi's "Batches", up
 * to FTD_MAX_FRAME) gets a buffer of its own, freed with the frame.
 */
#define SIM_FRAME_SMALL	(FTD_WIRE_HDR_LEN + FTD_WIRE_NOTICE_LEN)

struct sim_frame {
	u32 refs;	/* copies in flight */
	u16 len;
	u16 cap;	/* bytes at sim_frame_buf() */
	u8 *big;	/* NULL: the frame is in small */
	u8 small[SIM_FRAME_SMALL];
};

static inline u8 *sim_frame_buf(struct sim_frame *f)
{
	return f->big ? f->big : f->small;
}

/* Per frame type. */
struct sim_net_count {
	u64 sent;	/* frames handed to the network */
	u64 bytes;	/* their encoded size */
	u64 lost;	/* dropped by the loss model */
	u64 cut;	/* dropped by the partition */
};

/*
 * Frames on top of the wire's (enum ftd_frame_type) that the simulator
 * models without encoding them, each the size of a notice: a PROBE and its
 * answer (PROBE_ACK, fresh.c), and the indirect probes (relay.c): a
 * PROBE_REQ to a helper (about: the suspect), the helper's PROBE and the
 * answer (about: the requester), its PROBE_RELAY (about: the suspect).
 * The nonce is ref: the requester's PROBE's send time. A voter asks the
 * judges that have not voted (proto/vote.h) with the same PROBE; the
 * simulator gives it its own types (about: the subject voted against), so
 * that the answer finds the vote.
 */
enum {
	SIM_MSG_PROBE = __FTD_FRAME_MAX,
	SIM_MSG_ANSWER,
	SIM_MSG_PROBE_REQ,
	SIM_MSG_RELAY_PROBE,
	SIM_MSG_RELAY_ANSWER,
	SIM_MSG_RELAY,
	SIM_MSG_JUDGE_PROBE,
	SIM_MSG_JUDGE_ANSWER,
	SIM_MSG_SPAN_ACK,	/* a share received (span.h); ref: its frame */
	SIM_MSG_SPAN_TIMER,	/* a node's share timer (span.h), not a frame; ref: when */
	__SIM_MSG_MAX
};

struct sim_net {
	struct sim_net_config cfg;
	struct sim_rng rng;
	struct sim_evq *q;
	u32 n;
	u8 *in_cut;		/* per node: in the cut-off set (once cut) */
	enum sim_cut_mode cut_mode;
	bool cut_active;
	struct sim_frame *frames;
	u32 frames_cap;
	u32 *free_frames;
	u32 n_free;
	u32 frames_live, frames_peak;
	u16 size[__SIM_MSG_MAX];	/* encoded size of each frame type */
	struct sim_net_count count[__SIM_MSG_MAX];
	size_t fate_pos;		/* fate bytes used */
	u64 fate_lost, fate_late;	/* frames the fate bytes lost, delayed */
};

int sim_net_init(struct sim_net *net, const struct sim_net_config *cfg, u32 n, u64 seed,
		 struct sim_evq *q);
void sim_net_free(struct sim_net *net);

/* Start a partition: in_cut[] says who is cut off, mode how. */
void sim_net_cut(struct sim_net *net, enum sim_cut_mode mode);

/* Can a frame go from src to dst now (partition only; loss aside)? */
bool sim_net_reachable(const struct sim_net *net, u32 src, u32 dst);

/*
 * Send m at time now: counted, then lost, cut or queued for arrival. A
 * notice takes a reference on its frame when queued. -1: out of memory.
 */
int sim_net_send(struct sim_net *net, u64 now, const struct sim_msg *m);

/* A new frame buffer (refs 0) of at least cap bytes, or -1 when out of memory. */
s64 sim_net_frame_new(struct sim_net *net, u16 cap);
static inline struct sim_frame *sim_net_frame(struct sim_net *net, u32 idx)
{
	return &net->frames[idx];
}
/* Drop a reference; the frame is recycled at zero (or if it never had one). */
void sim_net_frame_put(struct sim_net *net, u32 idx);

#endif
