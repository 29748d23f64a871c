/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * ftdetect: a kernel-level failure detector for MPI jobs.
 *
 * This header is the one contract between the module and user space:
 *
 *   1. the wire format of the UDP frames nodes exchange      (FTD_WIRE_*)
 *   2. the event record read from /dev/ftdetect               (struct ftd_event)
 *   3. the /dev/ftdetect ioctls                               (FTD_IOC_*)
 *      and its read-only mmap'd status table                  (struct ftd_status_*)
 *   4. the generic netlink family "ftdetect"                  (FTDETECT_CMD_*, FTDETECT_A_*)
 *
 * Anything that crosses the kernel/user boundary is defined here and nowhere
 * else. Every structure uses fixed-width types with explicit padding so that
 * 32-bit and 64-bit user space see the same layout.
 *
 * Changing this file is a protocol change: bump FTD_WIRE_VERSION for a wire
 * change, FTD_EVENT_VERSION for an event record change, FTDETECT_GENL_VERSION
 * for an incompatible netlink change, FTD_STATUS_VERSION for an incompatible
 * status table change, and record it in docs/uapi.md.
 *
 * ------------------------------------------------------------------------
 * 1. Wire format
 * ------------------------------------------------------------------------
 *
 * Frames travel in UDP datagrams (IPv4 or IPv6) to the configured port,
 * default FTD_DEFAULT_PORT. All multi-byte fields are big-endian. A frame is
 * a fixed struct ftd_wire_hdr followed by a type-specific payload:
 *
 *   offset size field
 *        0    4 magic        FTD_WIRE_MAGIC, "FTDT"
 *        4    1 version      FTD_WIRE_VERSION
 *        5    1 type         enum ftd_frame_type
 *        6    1 rail         index of the rail (address) the frame was sent on
 *        7    1 flags        FTD_WIRE_F_*; unknown bits make the frame invalid
 *        8    2 length       whole frame, header included, in bytes
 *       10    2 reserved     zero
 *       12    4 cluster      cluster id; frames of another cluster are dropped
 *       16    4 sender       sender's node id
 *       20    4 incarnation  sender's incarnation (grows when a fenced node rejoins)
 *       24    8 seq          heartbeats: one stream per (sender incarnation,
 *                            receiver, rail), only growing; the high 32 bits
 *                            are an epoch the sender starts anew when it
 *                            re-creates its state for the receiver (a jump
 *                            between epochs is no loss); notices: one
 *                            per-sender sequence over all its notice
 *                            frames, from 1 within an incarnation (see
 *                            "Freshness" below; a frame of several notices
 *                            has one seq)
 *       32    8 tx_ns        sender's CLOCK_TAI when the frame was built; the TC
 *                            egress program (ebpf/) overwrites it as the frame
 *                            leaves, so the receiver can tell sender-side delay
 *                            from network delay (with synchronised clocks)
 *       40    8 rx_ns        zero on the wire, ignored on receipt (wire v1: the
 *                            XDP program's arrival stamp, which anyone on the
 *                            path could forge; it now travels in XDP metadata,
 *                            struct ftd_xdp_meta below)
 *       48    8 mac          SipHash-2-4 with the cluster key, over bytes
 *                            [0, 32) and [56, length): the two timestamp slots
 *                            are rewritten in flight and so are not covered
 *       56    4 receiver     the node id the frame is for: a frame captured on
 *                            its way to one node is worthless at another
 *       60    4 span_end     a share of a spanning broadcast (FTD_WIRE_F_SHARE,
 *                            notice frames only): the node id its arc of the
 *                            ring ends before (see "Notices" below); else zero
 *       64    - payload      type-specific, see below
 *
 * A frame is accepted only if magic, version, length, flags, cluster and mac
 * are all valid and the sender is a configured member; anything else is
 * counted as malformed or foreign and changes no state.
 *
 * Freshness. A valid MAC says who made a frame, not when; a frame must also
 * be new (kmod/proto/fresh.h has the rules, counted per reason and per
 * member when they refuse a frame):
 *  - a frame of an older incarnation than the sender's newest one proven
 *    is stale;
 *  - the sender's incarnation must be proven before anything it sends is
 *    believed: the receiver sends it a PROBE notice with a random nonce,
 *    and believes its PROBE_ACK echoing the nonce (MAC'd, at its current
 *    incarnation). A higher incarnation than the one proven needs no new
 *    proof (incarnations only grow). So a node that restarted (and knows
 *    nothing) refuses old captured frames until the sender answers;
 *  - a frame names its receiver: one addressed to another node (captured
 *    on its way there) is a replay here;
 *  - within an incarnation, a heartbeat must carry a higher seq than the
 *    last one heard on its rail, and a notice a seq its rail's replay
 *    window (256 numbers) has not seen.
 * Only fresh frames refresh liveness, of the sender or of "hearing anyone".
 */
#ifndef _UAPI_LINUX_FTDETECT_H
#define _UAPI_LINUX_FTDETECT_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define FTD_WIRE_MAGIC		0x46544454U	/* "FTDT" */
#define FTD_WIRE_VERSION	9	/* 2: notice seq, receiver, PROBE, rank owner;
					 * 3: DIGEST; 4: PROBE_REQ, PROBE_RELAY;
					 * 5: DIGEST counts live ranks, views
					 * carry ended ones (FTD_NOTICE_F_VIEW);
					 * 6: a notice frame carries up to
					 * FTD_WIRE_NOTICES_MAX news notices;
					 * 7: notices spread as shares of a
					 * spanning broadcast (FTD_WIRE_F_SHARE,
					 * span_end, SHARE_ACK);
					 * 8: OUTDATED;
					 * 9: first contact sends a DIGEST
					 * (FTD_NOTICE_F_CONTACT), not a view */
#define FTD_DEFAULT_PORT	7061
#define FTD_KEY_LEN		16		/* SipHash-2-4 key */
#define FTD_KEYS_ACCEPTED_MAX	3		/* keys accepted besides the one we send with */
/*
 * A key's id, which names a key without revealing it (ftctl show, ftstat,
 * FTDETECT_A_KEY_ID): the SipHash-2-4, under that key, of the 15 bytes
 * FTD_KEY_ID_INPUT, as a 64-bit number (printed as 16 hex digits).
 */
#define FTD_KEY_ID_INPUT	"ftdetect-key-id"
#define FTD_MAX_RAILS		4		/* addresses per node */
#define FTD_MAX_FRAME		1024		/* largest frame a node emits or accepts */

enum ftd_frame_type {
	FTD_FRAME_HEARTBEAT = 1,	/* no payload */
	FTD_FRAME_NOTICE,		/* payload: 1 to FTD_WIRE_NOTICES_MAX
					 * struct ftd_wire_notice, see below */
	__FTD_FRAME_MAX
};

/*
 * Heartbeats: each node sends one per period, on every rail, to its k live
 * successors in the ring of members ordered by node id, and observes its k
 * live predecessors; seq numbers one stream per (sender, rail).
 *
 * Notices: what the group decided or must know, spread by a spanning
 * broadcast over the fingers (the live members at ring distances 1, 2, 4,
 * ...; kmod/proto/span.h): every live node receives one copy, within
 * ceil(log2 N) hops. A broadcast hands out arcs of the ring: the
 * originator's is the whole ring; the holder of an arc sends the notices
 * to its fingers inside it, each as a share (FTD_WIRE_F_SHARE) whose
 * arc runs from that finger up to the next one (the last: up to the end
 * of the holder's arc), the header's span_end naming the node id the arc
 * ends before (the originator's own id for the last share of the whole
 * ring). A receiver acknowledges each share at once (SHARE_ACK, on the
 * rail it came) and forwards its notices to its own shares of its arc,
 * news to it or not, unless it forwarded them in a share already. A
 * share not acknowledged is sent again (ftd_span_resend_after()), after
 * FTD_SPAN_SENDS sends, or at once when its holder is held dead, the rest
 * of its arc is handed over to the shares its holder would have made,
 * and the holder alone is sent to until it answers, is held dead, or a
 * timeout went by. A notice frame without the flag is for its receiver
 * alone: applied, never forwarded. The header's sender is the forwarder; the
 * notice names the node it is about (subject, at an incarnation) and the
 * node that decided it (origin). Deduplication is by the subject's state:
 * a notice that changes nothing is not delivered.
 *
 *   kind                 subject              meaning
 *   FTD_NOTICE_DEAD      declared node        the origin observed it silent for the timeout
 *   FTD_NOTICE_LEFT      leaving node         it left cleanly (ftctl down)
 *   FTD_NOTICE_ALIVE     joining node         first heard by an observer, at this incarnation
 *   FTD_NOTICE_PROC_REG  the rank's node      a rank registered (job, rank, regid);
 *                                             never for a scoped one (section 3)
 *   FTD_NOTICE_PROC_DEAD the rank's node      it died registered: no timeout involved
 *   FTD_NOTICE_PROC_EXIT the rank's node      it deregistered cleanly
 *   FTD_NOTICE_IFACE_DEAD the rail's node     an observer stopped hearing it on rail `regid`
 *                                             while its other rails still carry heartbeats
 *   FTD_NOTICE_IFACE_RESTORED                 that rail carries heartbeats again
 *   FTD_NOTICE_SUSPECT   suspected node       with quorum q > 1: the origin, an observer,
 *                                             votes it dead; a node that counts q votes
 *                                             from distinct observers within one timeout
 *                                             declares it (DEAD notice)
 *   FTD_NOTICE_SYNC      the sender           "send me your view" (never forwarded);
 *                                             answered only to a member heard alive,
 *                                             at most once per timeout, off the
 *                                             receive path
 *   FTD_NOTICE_PROBE     the sender           "prove your incarnation": nonce in the
 *                                             64-bit word (never forwarded)
 *   FTD_NOTICE_PROBE_ACK the sender           the answer: the PROBE's nonce echoed,
 *                                             and hb_floor: the sender starts a new
 *                                             epoch of its heartbeats to the prober,
 *                                             which refuses any at or below it (a
 *                                             prober that lost track of the streams
 *                                             cannot be fed old ones) (never forwarded)
 *   FTD_NOTICE_DIGEST    the sender           anti-entropy: the sender's view in 64 bits
 *                                             (the 64-bit word: its nodes' states and the
 *                                             live rank registrations of those up,
 *                                             kmod/proto/digest.h; regid: the nodes it
 *                                             counts), sent to one random live member
 *                                             once its view has been settled for a
 *                                             timeout, every max(1 s, 4 timeouts)
 *                                             +-25 %; a receiver whose own settled view
 *                                             differs exchanges views with the sender;
 *                                             with FTD_NOTICE_F_CONTACT: sent at first
 *                                             contact, settled or not (see below and
 *                                             the flag) (never forwarded)
 *   FTD_NOTICE_PROBE_REQ the suspect          "probe it for me": an observer that
 *                                             suspects the subject (at subject_incarnation)
 *                                             asks 3 random live members (FTD_RELAY_HELPERS),
 *                                             each time it PROBEs the suspect itself; the
 *                                             64-bit word is the nonce of that PROBE
 *                                             (never forwarded)
 *   FTD_NOTICE_PROBE_RELAY the suspect        the helper's answer: the suspect answered
 *                                             the helper's own PROBE, made at most
 *                                             ftd_detect_ask_every() before the request
 *                                             came, at subject_incarnation; the 64-bit
 *                                             word echoes the requester's nonce, which
 *                                             accepts it only while that nonce is its
 *                                             outstanding one for the suspect: then the
 *                                             suspect counts as heard now (never
 *                                             forwarded). A lossy or broken link between
 *                                             two live nodes is thus no death while
 *                                             others reach the suspect (kmod/proto/relay.h)
 *   FTD_NOTICE_SHARE_ACK the sender           a share received: the 64-bit word is the
 *                                             seq of its frame; sent on the rail the
 *                                             share came on (never forwarded)
 *   FTD_NOTICE_OUTDATED  the sender           the answer to a PROBE of an older
 *                                             incarnation than the one the sender holds
 *                                             the prober at: the PROBE's nonce echoed,
 *                                             and regid: that incarnation. A prober
 *                                             whose outstanding nonce it echoes, and
 *                                             whose own incarnation is lower, fences
 *                                             and rejoins above it (it came up with its
 *                                             clock behind; kmod/proto/fresh.h). Sent at
 *                                             most once a period per prober, on the rail
 *                                             the PROBE came on (never forwarded)
 *
 * A node that first hears a node (it joined, restarted or rejoined) sends
 * it its digest, marked FTD_NOTICE_F_CONTACT; if the two differ, each
 * asks the other for its view with a SYNC if the other has caught up with
 * the group since it came up (FTD_NOTICE_F_CAUGHT_UP), at most once a
 * timeout: a joiner asks one member's view, no member asks the joiner's.
 * A view is one notice per
 * node its sender knows (ALIVE, DEAD or LEFT, itself included), and for
 * each node up the registrations it holds of it (PROC_REG for a live one,
 * PROC_DEAD or PROC_EXIT with FTD_NOTICE_F_VIEW for one that ended), sent
 * directly. Whatever is news in a view is applied (not forwarded: it is
 * for its receiver), so a node that starts late, or was cut off, catches
 * up with the group's state from one member, and a cold start costs no
 * view between nodes that learn each other from the announcements. The DIGEST exchange does the same between any two members whose
 * views differ after a notice was lost (a share lost past its resends, a
 * holder that crashed while forwarding), so every notice reaches every
 * live node in the end: a death or a leave at most once per incarnation,
 * the end of a rank's registration at most once per registration.
 *
 * Rail reports come from several observers and may cross in flight, so
 * each carries the subject's heartbeat seq on that rail where it was made:
 * IFACE_DEAD the last seq its origin heard before the silence, IFACE_RESTORED
 * the seq that came back. Reports about one rail are ordered by rail_seq,
 * IFACE_DEAD after IFACE_RESTORED at an equal rail_seq; a node applies and
 * forwards only a report newer than the newest it holds (delivering an event
 * only when the rail's state flips), so every node ends on the newest report
 * and none is forwarded twice by a node.
 *
 * A node that receives a DEAD notice about itself, or hears from a node it
 * holds dead at the same incarnation, fences: its registered ranks get
 * FENCED, and it rejoins with a higher incarnation (NODE_RESTORED elsewhere).
 * Their registrations were the old incarnation's, whose end the others
 * deliver as RANKS_DEAD: the end of such a rank is then an event on its
 * own node only (PROC_DEAD or PROC_EXIT), never sent, so that no node
 * delivers a rank's end twice.
 * So does a node that watches two or more nodes and hears nobody for a
 * timeout (its lease, kmod/proto/lease.h): the others declare it meanwhile.
 * And so does a node told by an OUTDATED that a member holds it at a higher
 * incarnation than its own: it rejoins above that one.
 *
 * Only a majority declares (kmod/proto/partition.h): deaths that come
 * within four timeouts of each other are weighed against the members held
 * live before the first of them; a node applies such a death only if the
 * members it holds live stay more than half of those, or exactly half with
 * the lowest node id among them (a share it holds goes on to its arc
 * either way: each member there judges for itself). A death that would
 * leave it fewer fences it instead (FENCED, origin itself): it forgets its
 * view and declares nobody until it holds more than half of that
 * membership live again, when the partition heals. A node past k deaths
 * in such a burst, or whose observed predecessor came back as a new
 * incarnation, PROBEs a random sample of 32 members and, hearing fewer
 * than a quarter of them within a timeout, fences the same way (a small
 * island, kmod/proto/reach.h).
 */
enum ftd_notice_kind {
	FTD_NOTICE_DEAD = 1,
	FTD_NOTICE_LEFT,
	FTD_NOTICE_ALIVE,
	FTD_NOTICE_PROC_REG,
	FTD_NOTICE_PROC_DEAD,
	FTD_NOTICE_PROC_EXIT,
	FTD_NOTICE_SYNC,
	FTD_NOTICE_IFACE_DEAD,
	FTD_NOTICE_IFACE_RESTORED,
	FTD_NOTICE_SUSPECT,
	FTD_NOTICE_PROBE,
	FTD_NOTICE_PROBE_ACK,
	FTD_NOTICE_DIGEST,
	FTD_NOTICE_PROBE_REQ,
	FTD_NOTICE_PROBE_RELAY,
	FTD_NOTICE_SHARE_ACK,
	FTD_NOTICE_OUTDATED,
	__FTD_NOTICE_MAX
};

/*
 * Notice flags. FTD_NOTICE_F_VIEW: the end of a rank's registration
 * (PROC_DEAD, PROC_EXIT) as a view carries it, a copy of what its sender
 * holds rather than news of an event: a receiver applies it only to a
 * registration it holds live, and keeps nothing of one it never knew (a
 * node that joins late is not told every rank that ever ended). Kept when
 * forwarded. Any other bit, or the flag on another kind, is malformed.
 */
#define FTD_NOTICE_F_VIEW	0x01
/*
 * FTD_NOTICE_F_CONTACT, on a DIGEST only: sent at first contact (the
 * sender begins to hear the receiver, hears it at a new incarnation, or
 * has just proven its incarnation, having refused its frames until then),
 * from a view that need not be settled. Its receiver never compares it as
 * a settled digest; it asks the sender for its view (a SYNC) if the words
 * or counts differ and the sender has caught up (F_CAUGHT_UP), at most
 * once a timeout (kmod/proto/digest.h, ftd_digest_ask_on_contact), and answers
 * with its own, FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER, at most once
 * a timeout per sender (an answer is not answered). So both sides learn
 * the other's digest even if one refused the other's first one.
 * FTD_NOTICE_F_CAUGHT_UP, with F_CONTACT only: the sender's view has been
 * settled once since it came up; a view is asked only of such a sender
 * (one that just came up knows nothing the group lacks, and its answers
 * would spend the receiver's one ask a timeout).
 */
#define FTD_NOTICE_F_CONTACT	0x02
#define FTD_NOTICE_F_ANSWER	0x04
#define FTD_NOTICE_F_CAUGHT_UP	0x08

struct ftd_wire_notice {
	__u8   kind;			/* enum ftd_notice_kind */
	__u8   flags;			/* FTD_NOTICE_F_*: F_VIEW on PROC_DEAD,
					 * PROC_EXIT; F_CONTACT, with F_ANSWER
					 * and F_CAUGHT_UP, on DIGEST */
	__u8   reserved[2];		/* zero */
	__be32 subject;
	__be32 subject_incarnation;
	__be32 origin;
	union {
		struct {
			__be32 job;	/* PROC_*: else zero */
			__be32 rank;	/* PROC_*: else zero */
		};
		__be64 rail_seq;	/* IFACE_*: the rail's heartbeat seq the
					 * report was made at (see below) */
		__be64 nonce;		/* PROBE, PROBE_ACK, PROBE_REQ,
					 * PROBE_RELAY, OUTDATED; DIGEST: the digest;
					 * SHARE_ACK: the share's seq */
	};
	union {
		struct {
			__be32 regid;	/* PROC_*: the node's registration
					 * number; IFACE_*: the rail index;
					 * DIGEST: the nodes it counts;
					 * OUTDATED: the prober's incarnation
					 * as the sender holds it */
			__be32 uid;	/* PROC_*: the rank's owner (see "Rank
					 * ownership" in section 3); else zero */
		};
		__be64 hb_floor;	/* PROBE_ACK: every heartbeat the sender
					 * sends the prober from now on, on any
					 * rail, has a higher seq (a new epoch) */
	};
};
#define FTD_WIRE_NOTICE_LEN	32

/*
 * Batches. A notice frame's payload is one notice or several, back to
 * back: as many as fit in FTD_MAX_FRAME. Several only of the kinds that
 * are news to apply (ftd_notice_batchable() in kmod/proto/wire.h: DEAD,
 * LEFT, ALIVE, PROC_*, IFACE_*); a control notice (SYNC, PROBE,
 * PROBE_ACK, DIGEST, PROBE_REQ, PROBE_RELAY, SUSPECT, SHARE_ACK,
 * OUTDATED) is alone in its frame, and never in a share. A frame any of whose notices
 * is malformed, that mixes a control notice with others, or a share that
 * holds one, is malformed as a whole: nothing of it is applied. The notices of a frame are applied in order, as if each had
 * come in a frame of its own (same sender, seq and freshness); a node
 * sends, in one frame to each finger, what one tick decided or one
 * received frame brought as news, so deaths declared together travel
 * together for as long as they are news together (docs/detection.md,
 * "Notices share frames", has what that saves).
 */
#define FTD_WIRE_NOTICES_MAX	((FTD_MAX_FRAME - FTD_WIRE_HDR_LEN) / FTD_WIRE_NOTICE_LEN)

/* Header flags: a notice frame that is a share of a spanning broadcast (span_end set). */
#define FTD_WIRE_F_SHARE	0x01
#define __FTD_WIRE_F_ALL	0x01

struct ftd_wire_hdr {
	__be32 magic;
	__u8   version;
	__u8   type;
	__u8   rail;
	__u8   flags;
	__be16 length;
	__be16 reserved;
	__be32 cluster;
	__be32 sender;
	__be32 incarnation;
	__be64 seq;
	__be64 tx_ns;
	__be64 rx_ns;
	__be64 mac;
	__be32 receiver;
	__be32 span_end;
};

#define FTD_WIRE_HDR_LEN	64

/*
 * A field's offset in a frame, for code that reads frames as bytes (the
 * module's codec, the eBPF programs, the test tools): the structs above
 * are the layout, these the one way to name a place in it.
 */
#define FTD_WIRE_HDR_OFF(field)		__builtin_offsetof(struct ftd_wire_hdr, field)
#define FTD_WIRE_NOTICE_OFF(field)	__builtin_offsetof(struct ftd_wire_notice, field)

/*
 * The driver-level arrival time, passed by the XDP program (ebpf/) to the
 * module in the packet's XDP metadata (bpf_xdp_adjust_meta), which only
 * XDP programs of this host can write, never a sender: exactly this struct,
 * right before the MAC header. rx_ns is the receiver's CLOCK_MONOTONIC at
 * the driver hook. Without it (no XDP program, a driver without metadata
 * room, or a reallocated head on the way), the module takes the skb's
 * receive time.
 */
#define FTD_XDP_META_MAGIC	0x46544d31U	/* "FTM1" */
struct ftd_xdp_meta {
	__u64 rx_ns;
	__u32 magic;		/* FTD_XDP_META_MAGIC */
	__u32 reserved;		/* zero */
};
#define FTD_WIRE_TX_OFF		32
#define FTD_WIRE_RX_OFF		40
#define FTD_WIRE_MAC_OFF	48

/*
 * ------------------------------------------------------------------------
 * 2. Event records
 * ------------------------------------------------------------------------
 *
 * read(2) on /dev/ftdetect returns whole struct ftd_event records, never a
 * partial one: a buffer smaller than one record gets -EINVAL. An opener
 * reads every record emitted after its open, in seq order, from its own
 * position in the instance's log of the last FTD_EVENT_QUEUE_LEN records
 * (shared by all openers: an event costs the kernel the same however many
 * there are). A reader more than FTD_EVENT_QUEUE_LEN records behind finds
 * its oldest unread records overwritten and reads one FTD_EV_OVERFLOW
 * record in their place (its seq: the first lost; count: how many), then
 * the records the log still holds, so a gap is never silent. After an
 * overflow, a reader resynchronises from the status table or the netlink
 * node dump.
 *
 * The same events are multicast on the netlink group "events" as
 * FTDETECT_CMD_EVENT messages (section 4). Names follow the CIFTS FTB
 * vocabulary where one exists:
 *
 *   ftdetect               FTB event                  meaning
 *   FTD_EV_NODE_ALIVE      -                          first heartbeat heard, or a suspect heard again
 *   FTD_EV_NODE_SUSPECT    -                          no heartbeat for the suspicion delay
 *   FTD_EV_NODE_DEAD       FTB_MPI_NODE_DEAD          declared dead (a failure), or came back at a
 *                                                     higher incarnation before anyone declared the
 *                                                     one held alive (a fast restart: origin is the
 *                                                     node that noticed); once per (node, incarnation)
 *   FTD_EV_NODE_LEFT       -                          left cleanly (not a failure)
 *   FTD_EV_NODE_RESTORED   FTB_MPI_NODE_RESTORED      a dead (or fast-restarted) node came back with a
 *                                                     higher incarnation
 *   FTD_EV_RANKS_DEAD      FTB_MPI_RANKS_DEAD         a rank lost with its node (one record per rank)
 *   FTD_EV_PROC_DEAD       FTB_MPI_PROCS_DEAD         a registered rank died without deregistering
 *   FTD_EV_PROC_EXIT       -                          a registered rank deregistered cleanly
 *   FTD_EV_IFACE_DEAD      FTB_MPI_IFACE_DEAD         a rail of a node stopped carrying heartbeats
 *   FTD_EV_IFACE_RESTORED  FTB_MPI_IFACE_RESTORED     that rail carries heartbeats again
 *   FTD_EV_FENCED          -                          this node was declared dead while alive
 *                                                     (origin: the declarer), heard nobody
 *                                                     for a timeout or lost the majority
 *                                                     (origin: itself), or came up below the
 *                                                     incarnation a member holds it at
 *                                                     (origin: that member, OUTDATED)
 *   FTD_EV_OVERFLOW        -                          count records were lost by this reader
 */
#define FTD_EVENT_VERSION	1
#define FTD_EVENT_QUEUE_LEN	1024

enum ftd_event_type {
	FTD_EV_NODE_ALIVE = 1,
	FTD_EV_NODE_SUSPECT,
	FTD_EV_NODE_DEAD,
	FTD_EV_NODE_LEFT,
	FTD_EV_NODE_RESTORED,
	FTD_EV_RANKS_DEAD,
	FTD_EV_PROC_DEAD,
	FTD_EV_PROC_EXIT,
	FTD_EV_IFACE_DEAD,
	FTD_EV_IFACE_RESTORED,
	FTD_EV_FENCED,
	FTD_EV_OVERFLOW,
	__FTD_EV_MAX
};
#define FTD_EV_MAX (__FTD_EV_MAX - 1)

#define FTD_NODE_NONE		0xffffffffU	/* "no node" in node/origin fields */
#define FTD_RAIL_NONE		0xffffffffU

struct ftd_event {
	__u16 version;		/* FTD_EVENT_VERSION */
	__u16 size;		/* sizeof(struct ftd_event) */
	__u16 type;		/* enum ftd_event_type */
	__u16 flags;		/* zero */
	__u64 seq;		/* per-instance event sequence number, from 1 */
	__u64 time_ns;		/* CLOCK_REALTIME when this node emitted the event */
	__u64 mono_ns;		/* CLOCK_MONOTONIC, same instant */
	__u32 node;		/* node concerned, or FTD_NODE_NONE */
	__u32 incarnation;	/* that node's incarnation */
	__u32 rail;		/* IFACE_*: rail index, else FTD_RAIL_NONE */
	__u32 origin;		/* node that decided it (observer), or FTD_NODE_NONE */
	__u32 job;		/* PROC_*, RANKS_DEAD: job id */
	__u32 rank;		/* PROC_*, RANKS_DEAD: rank */
	__u32 count;		/* OVERFLOW: records lost */
	__u32 uid;		/* PROC_*, RANKS_DEAD: the rank's owner (section 3,
				 * "Rank ownership"), else FTD_UID_NONE */
};
#define FTD_UID_NONE		0xffffffffU

/*
 * ------------------------------------------------------------------------
 * 3. /dev/ftdetect
 * ------------------------------------------------------------------------
 *
 * The opener's network namespace selects the instance. Opening, reading,
 * polling and registering need no privilege. Unknown ioctls return -ENOTTY;
 * a known ioctl number with the wrong size returns -EINVAL; unknown flags or
 * non-zero reserved fields return -EINVAL. At most max_openers files
 * (module parameter) are open on one instance: -EMFILE past it.
 *
 * Rank ownership
 * --------------
 * A registration (FTD_IOC_REGISTER) belongs to a uid and to a process:
 *
 *  - the uid is the registering task's effective uid, in the user
 *    namespace that owns the instance's network namespace (on a cluster
 *    node, the initial one: the cluster's uids). A task with CAP_SETUID
 *    there may register on behalf of another uid (FTD_REG_F_OWNER, for a
 *    launcher that registers a rank it starts). Every event about the rank
 *    (PROC_DEAD, PROC_EXIT, RANKS_DEAD), on every node, carries that uid,
 *    and so does its status table entry: a consumer matches (job, rank,
 *    uid), never (job, rank) alone, so a rank of another user with the same
 *    job and rank numbers is never mistaken for one of its own.
 *  - a job id belongs, on a node, to the uid of its live registrations:
 *    while a rank of job J is registered here by uid U, another uid's
 *    FTD_IOC_REGISTER for job J fails with -EPERM.
 *  - only the owner (or a task with CAP_SETUID) may end it: FTD_IOC_DEREGISTER
 *    by another uid fails with -EPERM and ends nothing.
 *  - the process is the registering task's thread group. The rank ends
 *    when that process closes any descriptor of the registration's file
 *    without deregistering first, which includes its death (the kernel
 *    closes a dead process's files): PROC_DEAD. A child made by fork(2)
 *    inherits the descriptor and the status table mapping, but neither
 *    keeps the rank alive nor ends it by closing its copy or exiting;
 *    exec(2) of a close-on-exec descriptor is a close.
 *    If the descriptor reached another process (SCM_RIGHTS), the rank also
 *    ends when the file's last reference goes.
 *
 * A launcher therefore lets each rank register itself (libftdetect in the
 * rank), or registers with FTD_REG_F_OWNER from the rank's own process
 * before exec (the descriptor without O_CLOEXEC).
 */
#define FTD_IOC_MAGIC		0xFD

struct ftd_rank_reg {
	__u32 job;
	__u32 rank;
	__u32 flags;		/* FTD_REG_F_* */
	__u32 owner;		/* FTD_REG_F_OWNER: the uid the rank runs as; else zero */
};

#define FTD_REG_F_OWNER		(1U << 0)	/* register on behalf of uid `owner` */
#define FTD_REG_F_SCOPED	(1U << 1)	/* tell nobody; its end to its scope only */
#define __FTD_REG_F_ALL		0x3U

/*
 * Scoped registrations: a rank's end told to its job's nodes only
 * ---------------------------------------------------------------
 * An unscoped registration is told to every node (PROC_REG), and so is
 * its end: a job start of R ranks costs every node R notices, and every
 * node keeps every rank of the cluster. An MPI job knows where its ranks
 * run (libftdetect_mpi learns it when it attaches a communicator), and
 * only those nodes need to hear that one of them ended; the death of a
 * node they learn from NODE_DEAD, which every node gets anyway.
 *
 *  - FTD_IOC_REGISTER with FTD_REG_F_SCOPED records the rank here (the
 *    status table, events, ownership as above) and tells no other node:
 *    no PROC_REG, nothing in views or digests. Other nodes have no entry
 *    for it and deliver no RANKS_DEAD for it when its node dies (NODE_DEAD
 *    says it: the job maps nodes to ranks itself).
 *  - FTD_IOC_SCOPE then gives the nodes to tell its end to (struct
 *    ftd_scope: count node ids at the user address nodes, in any order,
 *    duplicates and this node allowed). Given again, it replaces the set;
 *    count 0 takes it away (the end goes to every node again: a job that
 *    grew past FTD_SCOPE_MAX nodes).
 *    The end (PROC_DEAD, PROC_EXIT) goes to each of them directly, the ends
 *    of ranks that end together one frame per node, each acknowledged and
 *    sent again until it is, its receiver is held dead, or four timeouts
 *    went by (a notice for its receiver alone, never forwarded). Its
 *    receivers deliver PROC_DEAD or PROC_EXIT and keep an ended entry, as
 *    for an unscoped rank. A scoped end lost past its resends is not
 *    repaired by the digests (the other nodes never held the rank).
 *  - A scoped registration whose scope was never given (or was taken
 *    away) has its end broadcast to every node, as an unscoped one's; no
 *    node held the rank, so the digests do not repair a lost copy of it
 *    either.
 *
 * FTD_IOC_SCOPE errors, in the order they are checked, each leaving the
 * scope as it was: -EINVAL when flags or reserved are non-zero; -E2BIG
 * when count exceeds FTD_SCOPE_MAX (a job on more nodes leaves its scope
 * unset: past that size the spanning broadcast costs the rank's node
 * less than a frame per node of the job); -ENOMEM; -EFAULT for a bad
 * address; -EINVAL when a node id is FTD_NODE_NONE; then -ENOENT when the
 * file holds no registration, -EINVAL when it is not scoped, -EPERM for a
 * caller that may not act for the rank's owner. A node id the node table
 * does not hold (any more) is skipped when the end is sent.
 */
#define FTD_SCOPE_MAX		1024

struct ftd_scope {
	__u32 count;		/* node ids at nodes */
	__u32 flags;		/* none defined: zero */
	__u64 nodes;		/* user address of __u32[count] */
	__u64 reserved;		/* zero */
};

struct ftd_info {
	__u32 version;		/* FTD_EVENT_VERSION */
	__u32 event_size;	/* sizeof(struct ftd_event) */
	__u32 node;		/* local node id, FTD_NODE_NONE when not configured */
	__u32 cluster;
	__u32 incarnation;
	__u32 up;		/* 1 when the instance is running */
};

#define FTD_IOC_REGISTER	_IOW(FTD_IOC_MAGIC, 1, struct ftd_rank_reg)
#define FTD_IOC_DEREGISTER	_IO(FTD_IOC_MAGIC, 2)
#define FTD_IOC_INFO		_IOR(FTD_IOC_MAGIC, 3, struct ftd_info)
#define FTD_IOC_SCOPE		_IOW(FTD_IOC_MAGIC, 4, struct ftd_scope)

/*
 * The status table: mmap(2) of /dev/ftdetect
 * ------------------------------------------
 *
 * A read-only table of what this node knows of every node and every
 * registered rank, which the kernel keeps current as it changes, so that a
 * progress loop can check liveness without a system call:
 *
 *   fd = open("/dev/ftdetect", O_RDONLY);
 *   hdr = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);   first the header,
 *   size = hdr->size; munmap(hdr, 4096);                     to learn the size
 *   hdr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
 *
 * One table per instance (network namespace), shared by every opener, no
 * privilege needed. The offset must be 0 and the length at most hdr->size
 * (-EINVAL otherwise); a shorter mapping is allowed. A mapping that could
 * ever be written is refused: PROT_WRITE gets -EPERM with MAP_PRIVATE or an
 * O_RDWR file (-EACCES from the VFS for MAP_SHARED of an O_RDONLY file), and
 * mprotect(PROT_WRITE) later fails with -EACCES. The table is allocated
 * (vmalloc, about 3.5 MiB at the default capacities) when the instance is
 * first mapped, filled from the instance's state, and freed when the last
 * file open on the instance is closed. A mapping holds the file it was made
 * from, like an open descriptor: it stays valid and current as long as it
 * exists, across ftctl down/up and after the network namespace lost its
 * last process (the file keeps the instance alive). A mapping does not keep
 * a registration alive: the rank ends when its process closes the
 * descriptor (see "Rank ownership" above).
 *
 * Layout: a struct ftd_status_hdr at offset 0, then three arrays at the
 * offsets the header gives, each entry the size the header gives (entries
 * may grow in a later version, fields are only appended: step through an
 * array by its entry size, not by sizeof):
 *
 *   nodes    struct ftd_status_node[node_cap], [0, node_count) in use,
 *            sorted by id (binary search)
 *   ranks    struct ftd_status_rank[rank_cap], [0, rank_count) in use
 *   buckets  __u32[bucket_count], bucket_count a power of two: the index of
 *            ranks by (job, rank). bucket[ftd_status_rank_hash(job, rank) &
 *            (bucket_count - 1)] is the first entry of a chain (entry index
 *            + 1; 0 ends the chain) linked by each entry's next field.
 *
 * The offsets, entry sizes, capacities and bucket_count never change once
 * the table exists; everything else may change at any time.
 *
 * Consistency: seq is a sequence counter (the kernel's seqcount): odd while
 * the kernel is writing, incremented again when it is done. A reader copies
 * what it needs between two reads of seq and retries if the value was odd or
 * changed:
 *
 *   do {
 *           while ((s = load_acquire(&hdr->seq)) & 1)
 *                   cpu_relax();
 *           ... copy entries ...
 *           fence_acquire();
 *   } while (load(&hdr->seq) != s);
 *
 * A reader must bound every walk (binary search within [0, node_cap), a
 * chain at most rank_cap steps, indices below rank_count) since it may see
 * a half-written table before its retry.
 *
 * changes counts the updates completed since the table was created: a
 * progress loop that only wants to know "did anything change?" compares it
 * with the value it saw last (on a 64-bit CPU one load; a 32-bit reader
 * reads it under seq like the rest).
 *
 * Agreement with the event stream: the kernel updates the table in the same
 * critical section that numbers an event and queues it to readers, before
 * any reader can read the event. event_seq is the seq of the last event the
 * table reflects: a reader that has read every event up to E knows that the
 * table already reflects all of them (event_seq >= E), and when event_seq ==
 * E, nothing more. Some changes have no event (a rank registering, nodes
 * added, an instance restart): they bump changes, not event_seq.
 *
 * Node entries follow the NODE_*, IFACE_* events about each node (an event
 * about an older incarnation than the entry's is ignored: fail-stop holds
 * per incarnation), and the node table (FTDETECT_CMD_ADD_NODE/DEL_NODE,
 * ftctl down/up). The local node's entry says FTD_NODE_SELF.
 *
 * Rank entries: one per registration (a process's FTD_IOC_REGISTER here, a
 * PROC_REG notice from another node). ALIVE until PROC_DEAD, PROC_EXIT or
 * RANKS_DEAD ends it (cause and event_seq say which event); an end that
 * arrives before the registration makes an ended entry at once. An ALIVE
 * entry becomes STALE when the kernel stops tracking it: its node started a
 * new incarnation without a death being reported, was removed from the
 * node table, or this instance restarted (ftctl down/up); a view from its
 * node that announces it again makes it ALIVE. Ended entries stay until
 * their slot is needed (see capacity). A rank registered twice (on two
 * nodes, or again after ending) has two entries: the one to believe is the
 * ALIVE one, else the one with the highest gen.
 *
 * Capacity: node_cap and rank_cap are the module parameters status_nodes
 * (default FTD_STATUS_DEFAULT_NODES) and status_ranks (default
 * FTD_STATUS_DEFAULT_RANKS) when the table was created. Nothing is ever
 * overwritten silently:
 *  - a node that does not fit is not recorded: nodes_dropped counts it and
 *    FTD_STATUS_F_NODES_FULL stays set for the table's life;
 *  - a registration (or an end) that does not fit takes the slot of the
 *    entry that ended (or went STALE) first, oldest first: ranks_recycled
 *    counts these; when every slot holds an ALIVE rank it is not recorded:
 *    ranks_dropped counts it and FTD_STATUS_F_RANKS_FULL stays set.
 * While a FULL flag is set, a node or rank missing from the table is
 * unknown, not absent.
 */
#define FTD_STATUS_MAGIC		0x46544453U	/* "FTDS" */
#define FTD_STATUS_VERSION		1
#define FTD_STATUS_DEFAULT_NODES	4096
#define FTD_STATUS_DEFAULT_RANKS	65536

/* struct ftd_status_hdr.flags */
#define FTD_STATUS_F_UP			(1U << 0)	/* the instance is running */
#define FTD_STATUS_F_NODES_FULL		(1U << 1)	/* a node was not recorded */
#define FTD_STATUS_F_RANKS_FULL		(1U << 2)	/* a registration was not recorded */
#define __FTD_STATUS_F_ALL		0x7U

struct ftd_status_hdr {
	__u32 magic;		/* FTD_STATUS_MAGIC */
	__u16 version;		/* FTD_STATUS_VERSION */
	__u16 hdr_size;		/* sizeof(struct ftd_status_hdr) */
	__u32 seq;		/* odd while the kernel writes; see above */
	__u32 flags;		/* FTD_STATUS_F_* */
	__u64 changes;		/* updates completed since the table was created */
	__u64 event_seq;	/* seq of the last event the table reflects */
	__u32 size;		/* bytes of the table, a multiple of the page size */
	__u32 local_node;	/* the instance's node id, FTD_NODE_NONE if not set */
	__u32 local_incarnation;
	__u32 cluster;
	__u32 node_off;		/* byte offset of the node array */
	__u32 node_size;	/* bytes per node entry */
	__u32 node_cap;
	__u32 node_count;	/* entries in use */
	__u32 rank_off;		/* byte offset of the rank array */
	__u32 rank_size;	/* bytes per rank entry */
	__u32 rank_cap;
	__u32 rank_count;	/* entries in use */
	__u32 bucket_off;	/* byte offset of the __u32 bucket array */
	__u32 bucket_count;	/* a power of two */
	__u32 ranks_alive;	/* rank entries in state FTD_RANK_ALIVE */
	__u32 reserved;
	__u64 nodes_dropped;	/* nodes not recorded: the table was full */
	__u64 ranks_dropped;	/* registrations not recorded: every slot ALIVE */
	__u64 ranks_recycled;	/* ended or stale entries whose slot was reused */
	__u64 fenced;		/* FENCED events: this node was declared dead while alive */
};

struct ftd_status_node {
	__u32 id;
	__u32 incarnation;	/* 0 until known */
	__u8  state;		/* enum ftd_node_state */
	__u8  rails_down;	/* bit i: rail i reported down (IFACE_DEAD) */
	__u8  nrails;		/* addresses configured for it */
	__u8  reserved0;
	__u32 reserved1;
	__u64 event_seq;	/* seq of the last event that changed it, 0: none */
	__u64 gen;		/* the table's changes count when it last changed */
};

enum ftd_rank_state {
	FTD_RANK_FREE = 0,	/* unused slot: never in a chain */
	FTD_RANK_ALIVE,		/* registered, not ended */
	FTD_RANK_DEAD,		/* died registered (PROC_DEAD) or with its node (RANKS_DEAD) */
	FTD_RANK_EXITED,	/* deregistered cleanly (PROC_EXIT) */
	FTD_RANK_STALE,		/* no longer tracked by the kernel; see above */
	__FTD_RANK_STATE_MAX
};

#define FTD_STATUS_RANK_F_LOCAL	(1U << 0)	/* registered on this node */

struct ftd_status_rank {
	__u32 job;
	__u32 rank;
	__u32 node;		/* where it registered; FTD_NODE_NONE: here, before
				 * the local node id was set */
	__u32 incarnation;	/* that node's incarnation when it registered */
	__u32 regid;		/* that node's number for the registration */
	__u32 next;		/* bucket chain: next entry's index + 1, 0 ends */
	__u8  state;		/* enum ftd_rank_state */
	__u8  flags;		/* FTD_STATUS_RANK_F_* */
	__u16 cause;		/* enum ftd_event_type that ended it, else 0 */
	__u32 uid;		/* its owner (section 3, "Rank ownership") */
	__u64 event_seq;	/* seq of the event that ended it, 0: none (yet) */
	__u64 gen;		/* the table's changes count when it last changed */
};

/* The bucket of (job, rank) is ftd_status_rank_hash(job, rank) & (bucket_count - 1). */
static __inline__ __u32 ftd_status_rank_hash(__u32 job, __u32 rank)
{
	__u32 h = job * 0x9e3779b1U ^ rank * 0x85ebca77U;

	h ^= h >> 16;
	h *= 0x7feb352dU;
	h ^= h >> 15;
	return h;
}

/*
 * ------------------------------------------------------------------------
 * 4. Generic netlink family "ftdetect"
 * ------------------------------------------------------------------------
 *
 * Per network namespace; strict validation (unknown attributes are errors);
 * every command that changes state needs CAP_NET_ADMIN in the namespace's
 * user namespace; errors carry an extack message.
 *
 *   FTDETECT_CMD_GET_CONFIG          (do)     -> config attributes below
 *   FTDETECT_CMD_SET_CONFIG          (do, admin)
 *     FTDETECT_A_CLUSTER_ID          u32
 *     FTDETECT_A_LOCAL_NODE          u32      the local node's id
 *     FTDETECT_A_PORT                u16      UDP port, 1..65535
 *     FTDETECT_A_PERIOD_NS           u64      heartbeat period, >= FTD_MIN_PERIOD_NS
 *     FTDETECT_A_TIMEOUT_NS          u64      silence before a node is dead, >= 2 periods
 *     FTDETECT_A_KEY                 binary   FTD_KEY_LEN bytes (write only): the key
 *                                             every frame we send is signed with;
 *                                             frames under it are accepted; live
 *     FTDETECT_A_KEYS_ACCEPTED       binary   0..FTD_KEYS_ACCEPTED_MAX keys of
 *                                             FTD_KEY_LEN bytes each (write only):
 *                                             frames signed with these are accepted
 *                                             too, never sent; empty: none; live
 *     FTDETECT_A_UP                  u8       1: start heartbeats; 0: stop (as CMD_DOWN)
 *     FTDETECT_A_OBSERVERS           u8       k: observers of each node, 1..FTD_MAX_OBSERVERS,
 *                                             default FTD_DEFAULT_OBSERVERS; live
 *     FTDETECT_A_QUORUM              u8       q: observers that must agree before a node is
 *                                             declared dead, 1..k, default 1; live
 *     FTDETECT_A_RDMA_RAILS          u8       bit i: rail i's heartbeats go as RDMA
 *                                             unreliable datagrams (docs/rdma.md), on a
 *                                             queue pair of the RDMA port behind the
 *                                             rail's address, not over UDP; notices
 *                                             still take UDP. Default 0; fixed while up
 *   (GET_CONFIG also returns FTDETECT_A_INCARNATION u32, FTDETECT_A_UP u8,
 *   FTDETECT_A_KEY_ID u64, the id of the key we send with (FTD_KEY_ID_INPUT),
 *   and FTDETECT_A_KEYS_ACCEPTED_IDS, __u64[] in host order: the ids of the
 *   accepted keys, absent when there are none.)
 *   While the instance is up, a request that would change CLUSTER_ID, LOCAL_NODE,
 *   PORT or RDMA_RAILS fails with -EBUSY (the same values are accepted); PERIOD_NS,
 *   TIMEOUT_NS, KEY and KEYS_ACCEPTED change live. The key is all zeroes until
 *   set: frames are then still checked for integrity, but anyone who knows the
 *   format can forge them.
 *   Changing the key of a running cluster without a false suspicion takes
 *   three rounds, each done at every node before the next starts: (1) accept
 *   the new key; (2) send with the new key, accept the old one; (3) stop
 *   accepting the old key. A node's FTDETECT_A_NODE_KEY_ID tells which key
 *   its frames use.
 *
 *   FTDETECT_CMD_DOWN                (do, admin)   stop heartbeats, keep config and nodes
 *
 *   FTDETECT_CMD_ADD_NODE            (do, admin)   add or replace one node
 *   FTDETECT_CMD_DEL_NODE            (do, admin)   remove one node (only ID needed)
 *   FTDETECT_CMD_GET_NODE            (dump, or do with an ID)
 *     FTDETECT_A_NODE                nest
 *       FTDETECT_A_NODE_ID           u32
 *       FTDETECT_A_NODE_ADDRS        nest, one entry per rail, in rail order. Rail i of a
 *                                     node exchanges heartbeats with rail i of the others
 *                                     (parallel fabrics): a rail index has one address
 *                                     family across the cluster
 *         FTDETECT_A_ADDR            nest
 *           FTDETECT_A_ADDR_INET     be32     (exactly one of INET / INET6)
 *           FTDETECT_A_ADDR_INET6    binary   16 bytes
 *           FTDETECT_A_ADDR_RX       u64      (dump) frames accepted on this rail
 *           FTDETECT_A_ADDR_LOST     u64      (dump) sequence gaps on this rail
 *           FTDETECT_A_ADDR_AGE_NS   u64      (dump) time since last heard, if ever
 *           FTDETECT_A_ADDR_STAMP    u8       (dump) enum ftd_stamp_source of the last frame
 *           FTDETECT_A_ADDR_DELAY    nest     (dump) driver-to-module delay: the module's
 *                                              receive time minus the XDP stamp, over
 *                                              the frames that carried one
 *             FTDETECT_A_DELAY_SAMPLES u64
 *             FTDETECT_A_DELAY_MIN_NS  u64
 *             FTDETECT_A_DELAY_MEAN_NS u64
 *             FTDETECT_A_DELAY_MAX_NS  u64
 *             FTDETECT_A_DELAY_HIST    binary  __u64[FTD_DELAY_BUCKETS]: bucket 0 counts
 *                                              delays < 1 us, bucket i (1..14) delays
 *                                              in [2^(i-1), 2^i) us, bucket 15 the rest
 *           FTDETECT_A_ADDR_RDMA     nest     (dump; the local node's rails only) the RDMA
 *                                              port behind the rail's interface
 *                                              (docs/rdma.md); absent: none seen since
 *                                              the instance came up (an IP rail)
 *             FTDETECT_A_RDMA_DEVICE string  the RDMA device's name (IB_DEVICE_NAME_MAX)
 *             FTDETECT_A_RDMA_PORT   u32     its port number; 0: unknown
 *             FTDETECT_A_RDMA_STATE  u8      enum ftd_rdma_state
 *             FTDETECT_A_RDMA_QPN    u32     on a rail of FTDETECT_A_RDMA_RAILS: the
 *                                            number of the datagram queue pair our
 *                                            heartbeats use there; 0: none yet (no
 *                                            RDMA device behind the address, or
 *                                            not created: the kernel log says why)
 *       FTDETECT_A_NODE_STATE        u8       (dump) enum ftd_node_state
 *       FTDETECT_A_NODE_INCARNATION  u32      (dump)
 *       FTDETECT_A_NODE_AGE_NS       u64      (dump) since last heard on any rail, if ever
 *       FTDETECT_A_NODE_RX           u64      (dump) frames accepted
 *       FTDETECT_A_NODE_LOST         u64      (dump) heartbeats lost (sequence gaps)
 *       FTDETECT_A_NODE_IAT_MEAN_NS  u64      (dump) mean inter-arrival time
 *       FTDETECT_A_NODE_IAT_JITTER_NS u64     (dump) mean absolute deviation of inter-arrival
 *       FTDETECT_A_NODE_TX           u64      (dump) frames sent to it
 *       FTDETECT_A_NODE_IAT_MAX_NS   u64      (dump) longest inter-arrival gap seen
 *       FTDETECT_A_NODE_RX_BADMAC    u64      (dump) frames from its address, naming it,
 *                                             with a MAC the cluster key does not make
 *       FTDETECT_A_NODE_RX_STALE     u64      (dump) refused: an older incarnation
 *       FTDETECT_A_NODE_RX_REPLAY    u64      (dump) refused: a notice seen before, or
 *                                             a PROBE_ACK answering no PROBE of ours
 *       FTDETECT_A_NODE_RX_UNPROVEN  u64      (dump) refused: its incarnation not proven yet
 *       FTDETECT_A_NODE_PROVEN       u32      (dump) the incarnation it proved, 0: none
 *       FTDETECT_A_NODE_SLOW_NS      u64      (dump) how late its ticks ran lately, as its
 *                                             heartbeats' own clocks show: the extra
 *                                             silence it is given before it is declared
 *                                             dead, at most one timeout; 0: none
 *       FTDETECT_A_NODE_KEY_ID       u64      (dump) the id of the key its last accepted
 *                                             frame was signed with, if any
 *       FTDETECT_A_NODE_BADMAC_AGE_NS u64     (dump) since its last frame with a bad
 *                                             MAC (RX_BADMAC), present only while no
 *                                             frame of it was accepted since: it speaks
 *                                             with a key we do not hold (or someone
 *                                             sends with its address: the frames are
 *                                             not authentic, so this proves nothing)
 *
 *   FTDETECT_CMD_GET_STATS           (do)     instance counters
 *     FTDETECT_A_STATS               nest
 *       FTDETECT_A_STATS_TX          u64      frames sent
 *       FTDETECT_A_STATS_TX_ERR      u64      frames that could not be sent
 *       FTDETECT_A_STATS_RX          u64      frames accepted
 *       FTDETECT_A_STATS_RX_MALFORMED u64     dropped: bad magic/version/length/flags/type
 *       FTDETECT_A_STATS_RX_FOREIGN  u64      dropped: other cluster or unknown sender
 *       FTDETECT_A_STATS_RX_BADMAC   u64      dropped: MAC mismatch
 *       FTDETECT_A_STATS_EVENTS      u64      events emitted
 *       FTDETECT_A_STATS_TICKS       u64      heartbeat timer ticks
 *       FTDETECT_A_STATS_TICKS_LATE  u64      ticks that fired more than one period late
 *       FTDETECT_A_STATS_TICK_LATE_MAX_NS u64 the latest a tick has fired
 *       FTDETECT_A_STATS_NOTICES_TX  u64      notice frames sent (originated or forwarded)
 *       FTDETECT_A_STATS_NOTICES_RX  u64      notice frames received
 *       FTDETECT_A_STATS_NOTICES_DUP u64      received notices that were no news
 *       FTDETECT_A_STATS_FENCED      u64      times this node was fenced
 *       FTDETECT_A_STATS_RX_STALE    u64      refused: an older incarnation (Freshness, section 1)
 *       FTDETECT_A_STATS_RX_REPLAY   u64      refused: replayed notice or unsolicited PROBE_ACK
 *       FTDETECT_A_STATS_RX_UNPROVEN u64      refused: sender's incarnation not proven yet
 *       FTDETECT_A_STATS_REPAIRS     u64      views exchanged because a member's digest
 *                                             differed from ours (FTD_NOTICE_DIGEST)
 *       FTDETECT_A_STATS_MINORITY    u64      not a counter: nonzero while this node is in
 *                                             a minority (the partition rule or the reach
 *                                             check, docs/detection.md), the size of the membership
 *                                             whose majority it lost; it declares nobody
 *                                             until it holds more than half of it live
 *       FTDETECT_A_STATS_TICKS_RX_BEHIND u64  ticks on time at which a heartbeat handled
 *                                             since the tick before had waited more than
 *                                             a period in this host's receive path (a
 *                                             swamped CPU's backlog): silence measured
 *                                             then may be frames still queued; that wait
 *                                             stretches the deadlines the node judges by
 *                                             for a while (docs/detection.md)
 *       FTDETECT_A_STATS_EVENTS_BY_TYPE binary __u64[__FTD_EV_MAX]: events emitted, by
 *                                             enum ftd_event_type (index = type, index 0
 *                                             unused); sums to FTDETECT_A_STATS_EVENTS.
 *                                             Its length is the module's __FTD_EV_MAX:
 *                                             readers take what both know and ignore
 *                                             the rest (an older or newer module)
 *       FTDETECT_A_STATS_DECLARED_HIST binary __u64[FTD_LATENCY_BUCKETS]: for each
 *                                             NODE_DEAD this node declared itself
 *                                             (origin: this node), the silence at
 *                                             declaration: the time since this node
 *                                             last heard the dead node on any rail.
 *                                             Bucket 0 counts < 1 us, bucket i (1..30)
 *                                             [2^(i-1), 2^i) us, bucket 31 the rest.
 *                                             A node never heard is not counted, nor
 *                                             the NODE_DEAD of a node seen restarted
 *                                             (it is alive again: no detection)
 *       FTDETECT_A_STATS_DECLARED_SUM_NS u64  the sum of those silences
 *       FTDETECT_A_STATS_TOLD_HIST   binary  __u64[FTD_LATENCY_BUCKETS]: the same for each
 *                                             NODE_DEAD learned from another node's
 *                                             notice: the silence when the notice was
 *                                             delivered here (detection plus
 *                                             dissemination, as this node saw it).
 *                                             Only the dead node's observers (its k
 *                                             successors) receive its heartbeats: at
 *                                             any other node this is the time since
 *                                             anything else was heard from it (a
 *                                             probe, a notice), seconds or more
 *       FTDETECT_A_STATS_TOLD_SUM_NS u64      the sum of those silences
 *       FTDETECT_A_STATS_TICKS_RX_DROPPED u64 ticks at which this machine had dropped
 *                                             received frames (its per-CPU backlogs)
 *                                             within the last timeout: a silence of
 *                                             less than 4 deadlines declared nobody
 *                                             then, nor ended the lease (the
 *                                             overload rule, docs/detection.md)
 *       FTDETECT_A_STATS_RELAYS_ASKED u64     PROBE_REQs sent: members asked to probe a
 *                                             node this node suspects
 *       FTDETECT_A_STATS_RELAYS_SENT u64      PROBE_RELAYs sent: a suspect answered this
 *                                             node's PROBE made for another observer
 *       FTDETECT_A_STATS_RELAYS_HEARD u64     PROBE_RELAYs accepted: a suspect this node
 *                                             could not hear was heard through another
 *       FTDETECT_A_STATS_NOTICE_ITEMS_TX u64  the notices the notice frames sent carried
 *                                             (a frame carries up to FTD_WIRE_NOTICES_MAX,
 *                                             section 1 "Batches"): over NOTICES_TX, the
 *                                             notices per frame
 *       FTDETECT_A_STATS_NOTICE_ITEMS_RX u64  the same for the notice frames received
 *       FTDETECT_A_STATS_TICKS_RX_STUCK u64   ticks at which received frames waited in
 *                                             another CPU's backlog and that CPU had not
 *                                             processed as many as waited there a look
 *                                             before, for a period (at least 1
 *                                             ms; looked at only while a verdict may be
 *                                             near: someone suspect, or nobody heard;
 *                                             its vCPU descheduled, its ksoftirqd starved):
 *                                             a silence of less than 4 deadlines
 *                                             declared nobody then, and the lease held
 *                                             (the overload rule, docs/detection.md)
 *       FTDETECT_A_STATS_SHARES_RESENT u64    shares of a spanning broadcast sent again,
 *                                             unacknowledged (section 1, "Notices")
 *       FTDETECT_A_STATS_SHARES_HANDED_OVER u64 shares whose rest went to their holder's
 *                                             own shares (unacknowledged after
 *                                             FTD_SPAN_SENDS sends, or the holder held dead)
 *       FTDETECT_A_STATS_SHARES_DROPPED u64   shares given up: a holder alone that never
 *                                             answered, or more shares waiting than
 *                                             FTD_SHARES_WAITING_MAX (the digests repair)
 *       FTDETECT_A_STATS_MEM_NODES   u64      not a counter: bytes of kernel memory the node
 *                                             table holds now, one object per node sized
 *                                             to its rails (the local node included; the
 *                                             indexes that find them are not counted),
 *                                             and the timing figures of each rail that
 *                                             sent us heartbeats (FTDETECT_A_NODE_IAT_*,
 *                                             FTDETECT_A_ADDR_DELAY)
 *       FTDETECT_A_STATS_MEM_RANKS   u64      not a counter: bytes of the rank tables its
 *                                             nodes hold now (one per node that has
 *                                             registered ranks, sized to the
 *                                             registrations it keeps, live and ended:
 *                                             8 entries doubled as it fills, up to 256).
 *                                             MEM_NODES and MEM_RANKS walk every node:
 *                                             present only for a caller with
 *                                             CAP_NET_ADMIN over the namespace
 *       FTDETECT_A_STATS_ROUTE_CACHES u64     not a counter: route caches allocated while
 *                                             up, each an entry per possible CPU: only
 *                                             for the nodes the timer sends to every
 *                                             tick (our k successors' heartbeats, an
 *                                             observer's reminders); one idle for a few
 *                                             ticks is taken over by the next such node
 *                                             (after the ring changed). At most 2 x
 *                                             FTD_MAX_OBSERVERS x FTD_MAX_RAILS; others'
 *                                             routes are looked up per frame
 *       FTDETECT_A_STATS_VIEWS_ASKED u64      views asked of a member at a first contact:
 *                                             its contact digest (FTD_NOTICE_F_CONTACT)
 *                                             differed from ours (at most one a timeout)
 *
 *   FTDETECT_CMD_EVENT               (multicast on "events"; never sent by user space)
 *     FTDETECT_A_EVENT               nest
 *       FTDETECT_A_EVENT_TYPE        u16      enum ftd_event_type
 *       FTDETECT_A_EVENT_SEQ         u64
 *       FTDETECT_A_EVENT_TIME_NS     u64      CLOCK_REALTIME
 *       FTDETECT_A_EVENT_MONO_NS     u64      CLOCK_MONOTONIC
 *       FTDETECT_A_EVENT_NODE        u32
 *       FTDETECT_A_EVENT_INCARNATION u32
 *       FTDETECT_A_EVENT_RAIL        u32      (IFACE_* only)
 *       FTDETECT_A_EVENT_ORIGIN      u32      (when known)
 *       FTDETECT_A_EVENT_JOB         u32      (PROC_*, RANKS_DEAD)
 *       FTDETECT_A_EVENT_RANK        u32      (PROC_*, RANKS_DEAD)
 *       FTDETECT_A_EVENT_COUNT       u32      (OVERFLOW)
 *       FTDETECT_A_EVENT_UID         u32      (PROC_*, RANKS_DEAD) the rank's owner
 */
#define FTDETECT_GENL_NAME		"ftdetect"
#define FTDETECT_GENL_VERSION		1
#define FTDETECT_MCGRP_EVENTS		"events"

#define FTD_MIN_PERIOD_NS		100000ULL	/* 100 us */
#define FTD_MAX_PERIOD_NS		10000000000ULL	/* 10 s */
#define FTD_MAX_TIMEOUT_NS		600000000000ULL	/* 10 min */
#define FTD_DEFAULT_PERIOD_NS		10000000ULL	/* 10 ms */
#define FTD_DEFAULT_TIMEOUT_NS		50000000ULL	/* 50 ms */
#define FTD_MAX_OBSERVERS		8
#define FTD_DEFAULT_OBSERVERS		2

/* Where the arrival time of a rail's last frame came from, earliest first. */
enum ftd_stamp_source {
	FTD_STAMP_NONE = 0,	/* nothing heard yet */
	FTD_STAMP_XDP,		/* the XDP program, at the driver hook */
	FTD_STAMP_SKB,		/* the core receive path's skb timestamp */
	FTD_STAMP_MODULE,	/* the module's own clock read, when neither exists */
	FTD_STAMP_RDMA,		/* came over RDMA: the module's clock when it took the
				 * receive completion (docs/rdma.md) */
	__FTD_STAMP_MAX
};

/*
 * The RDMA port behind one of the local node's rails (FTDETECT_A_RDMA_STATE,
 * docs/rdma.md): an RDMA rail is up only while its port is active.
 */
enum ftd_rdma_state {
	FTD_RDMA_NONE = 0,	/* no RDMA device behind the interface (never sent) */
	FTD_RDMA_ACTIVE,	/* its port is active */
	FTD_RDMA_DOWN,		/* its port is not active: the rail is down */
	FTD_RDMA_GONE,		/* its RDMA device went away: the rail is down */
	__FTD_RDMA_MAX
};

#define FTD_DELAY_BUCKETS	16
/*
 * Buckets of a latency histogram (FTDETECT_A_STATS_*_HIST): log2 microseconds
 * as FTD_DELAY_BUCKETS, longer, so that bucket 30 (about 537 s to 1074 s) holds
 * the longest timeout, FTD_MAX_TIMEOUT_NS.
 */
#define FTD_LATENCY_BUCKETS	32

enum ftd_node_state {
	FTD_NODE_UNKNOWN = 0,	/* configured, never heard */
	FTD_NODE_ALIVE,
	FTD_NODE_SUSPECT,
	FTD_NODE_DEAD,
	FTD_NODE_LEFT,
	FTD_NODE_SELF,
	__FTD_NODE_STATE_MAX
};

enum ftdetect_cmd {
	FTDETECT_CMD_UNSPEC,
	FTDETECT_CMD_GET_CONFIG,
	FTDETECT_CMD_SET_CONFIG,
	FTDETECT_CMD_DOWN,
	FTDETECT_CMD_ADD_NODE,
	FTDETECT_CMD_DEL_NODE,
	FTDETECT_CMD_GET_NODE,
	FTDETECT_CMD_GET_STATS,
	FTDETECT_CMD_EVENT,
	__FTDETECT_CMD_MAX
};
#define FTDETECT_CMD_MAX (__FTDETECT_CMD_MAX - 1)

enum ftdetect_attr {
	FTDETECT_A_UNSPEC,
	FTDETECT_A_PAD,
	FTDETECT_A_CLUSTER_ID,
	FTDETECT_A_LOCAL_NODE,
	FTDETECT_A_PORT,
	FTDETECT_A_PERIOD_NS,
	FTDETECT_A_TIMEOUT_NS,
	FTDETECT_A_KEY,
	FTDETECT_A_UP,
	FTDETECT_A_INCARNATION,
	FTDETECT_A_NODE,
	FTDETECT_A_STATS,
	FTDETECT_A_EVENT,
	FTDETECT_A_OBSERVERS,
	FTDETECT_A_QUORUM,
	FTDETECT_A_KEYS_ACCEPTED,
	FTDETECT_A_KEY_ID,
	FTDETECT_A_KEYS_ACCEPTED_IDS,
	FTDETECT_A_RDMA_RAILS,
	__FTDETECT_A_MAX
};
#define FTDETECT_A_MAX (__FTDETECT_A_MAX - 1)

enum ftdetect_node_attr {
	FTDETECT_A_NODE_UNSPEC,
	FTDETECT_A_NODE_PAD,
	FTDETECT_A_NODE_ID,
	FTDETECT_A_NODE_ADDRS,
	FTDETECT_A_NODE_STATE,
	FTDETECT_A_NODE_INCARNATION,
	FTDETECT_A_NODE_AGE_NS,
	FTDETECT_A_NODE_RX,
	FTDETECT_A_NODE_LOST,
	FTDETECT_A_NODE_IAT_MEAN_NS,
	FTDETECT_A_NODE_IAT_JITTER_NS,
	FTDETECT_A_NODE_TX,
	FTDETECT_A_NODE_IAT_MAX_NS,
	FTDETECT_A_NODE_RX_BADMAC,
	FTDETECT_A_NODE_RX_STALE,
	FTDETECT_A_NODE_RX_REPLAY,
	FTDETECT_A_NODE_RX_UNPROVEN,
	FTDETECT_A_NODE_PROVEN,
	FTDETECT_A_NODE_SLOW_NS,
	FTDETECT_A_NODE_KEY_ID,
	FTDETECT_A_NODE_BADMAC_AGE_NS,
	__FTDETECT_A_NODE_MAX
};
#define FTDETECT_A_NODE_MAX (__FTDETECT_A_NODE_MAX - 1)

/*
 * The scalars of FTDETECT_A_NODE a dump gives, each once, in the enum's
 * order: X(ATTR, name, type) for FTDETECT_A_NODE_<ATTR>, of netlink type
 * u8, u32 or u64; name is the field that holds it in the tools. Their
 * meaning is in the command list above. Not in it: ID (the key) and ADDRS
 * (a nest). A new scalar goes into the enum above and here, and from here
 * into the decoder and the tools; the build checks that nothing in the
 * enum was left out.
 */
#define FTDETECT_NODE_SCALARS(X)				\
	X(STATE,		state,			u8)	\
	X(INCARNATION,		incarnation,		u32)	\
	X(AGE_NS,		age_ns,			u64)	\
	X(RX,			rx,			u64)	\
	X(LOST,			lost,			u64)	\
	X(IAT_MEAN_NS,		iat_mean_ns,		u64)	\
	X(IAT_JITTER_NS,	iat_jitter_ns,		u64)	\
	X(TX,			tx,			u64)	\
	X(IAT_MAX_NS,		iat_max_ns,		u64)	\
	X(RX_BADMAC,		rx_badmac,		u64)	\
	X(RX_STALE,		rx_stale,		u64)	\
	X(RX_REPLAY,		rx_replay,		u64)	\
	X(RX_UNPROVEN,		rx_unproven,		u64)	\
	X(PROVEN,		proven,			u32)	\
	X(SLOW_NS,		slow_ns,		u64)	\
	X(KEY_ID,		key_id,			u64)	\
	X(BADMAC_AGE_NS,	badmac_age_ns,		u64)
/* The attributes of FTDETECT_A_NODE that are not in FTDETECT_NODE_SCALARS. */
#define FTDETECT_NODE_NOT_SCALAR	4	/* UNSPEC, PAD, ID, ADDRS */

enum ftdetect_addrs_attr {
	FTDETECT_A_ADDRS_UNSPEC,
	FTDETECT_A_ADDR,
	__FTDETECT_A_ADDRS_MAX
};
#define FTDETECT_A_ADDRS_MAX (__FTDETECT_A_ADDRS_MAX - 1)

enum ftdetect_addr_attr {
	FTDETECT_A_ADDR_UNSPEC,
	FTDETECT_A_ADDR_PAD,
	FTDETECT_A_ADDR_INET,
	FTDETECT_A_ADDR_INET6,
	FTDETECT_A_ADDR_RX,
	FTDETECT_A_ADDR_LOST,
	FTDETECT_A_ADDR_AGE_NS,
	FTDETECT_A_ADDR_STAMP,
	FTDETECT_A_ADDR_DELAY,
	FTDETECT_A_ADDR_RDMA,
	__FTDETECT_A_ADDR_MAX
};
#define FTDETECT_A_ADDR_MAX (__FTDETECT_A_ADDR_MAX - 1)

/*
 * The scalars of FTDETECT_A_ADDR a dump gives, as FTDETECT_NODE_SCALARS
 * for a node. Not in it: INET and INET6 (the address), DELAY and RDMA
 * (nests).
 */
#define FTDETECT_ADDR_SCALARS(X)				\
	X(RX,			rx,			u64)	\
	X(LOST,			lost,			u64)	\
	X(AGE_NS,		age_ns,			u64)	\
	X(STAMP,		stamp,			u8)
/* The attributes of FTDETECT_A_ADDR that are not in FTDETECT_ADDR_SCALARS. */
#define FTDETECT_ADDR_NOT_SCALAR	6	/* UNSPEC, PAD, INET, INET6, DELAY, RDMA */

enum ftdetect_delay_attr {
	FTDETECT_A_DELAY_UNSPEC,
	FTDETECT_A_DELAY_PAD,
	FTDETECT_A_DELAY_SAMPLES,
	FTDETECT_A_DELAY_MIN_NS,
	FTDETECT_A_DELAY_MEAN_NS,
	FTDETECT_A_DELAY_MAX_NS,
	FTDETECT_A_DELAY_HIST,
	__FTDETECT_A_DELAY_MAX
};
#define FTDETECT_A_DELAY_MAX (__FTDETECT_A_DELAY_MAX - 1)

enum ftdetect_rdma_attr {
	FTDETECT_A_RDMA_UNSPEC,
	FTDETECT_A_RDMA_DEVICE,
	FTDETECT_A_RDMA_PORT,
	FTDETECT_A_RDMA_STATE,
	FTDETECT_A_RDMA_QPN,
	__FTDETECT_A_RDMA_MAX
};
#define FTDETECT_A_RDMA_MAX (__FTDETECT_A_RDMA_MAX - 1)

enum ftdetect_stats_attr {
	FTDETECT_A_STATS_UNSPEC,
	FTDETECT_A_STATS_PAD,
	FTDETECT_A_STATS_TX,
	FTDETECT_A_STATS_TX_ERR,
	FTDETECT_A_STATS_RX,
	FTDETECT_A_STATS_RX_MALFORMED,
	FTDETECT_A_STATS_RX_FOREIGN,
	FTDETECT_A_STATS_RX_BADMAC,
	FTDETECT_A_STATS_EVENTS,
	FTDETECT_A_STATS_TICKS,
	FTDETECT_A_STATS_TICKS_LATE,
	FTDETECT_A_STATS_TICK_LATE_MAX_NS,
	FTDETECT_A_STATS_NOTICES_TX,
	FTDETECT_A_STATS_NOTICES_RX,
	FTDETECT_A_STATS_NOTICES_DUP,
	FTDETECT_A_STATS_FENCED,
	FTDETECT_A_STATS_RX_STALE,
	FTDETECT_A_STATS_RX_REPLAY,
	FTDETECT_A_STATS_RX_UNPROVEN,
	FTDETECT_A_STATS_REPAIRS,
	FTDETECT_A_STATS_MINORITY,
	FTDETECT_A_STATS_TICKS_RX_BEHIND,
	FTDETECT_A_STATS_EVENTS_BY_TYPE,
	FTDETECT_A_STATS_DECLARED_HIST,
	FTDETECT_A_STATS_DECLARED_SUM_NS,
	FTDETECT_A_STATS_TOLD_HIST,
	FTDETECT_A_STATS_TOLD_SUM_NS,
	FTDETECT_A_STATS_TICKS_RX_DROPPED,
	FTDETECT_A_STATS_RELAYS_ASKED,
	FTDETECT_A_STATS_RELAYS_SENT,
	FTDETECT_A_STATS_RELAYS_HEARD,
	FTDETECT_A_STATS_NOTICE_ITEMS_TX,
	FTDETECT_A_STATS_NOTICE_ITEMS_RX,
	FTDETECT_A_STATS_TICKS_RX_STUCK,
	FTDETECT_A_STATS_SHARES_RESENT,
	FTDETECT_A_STATS_SHARES_HANDED_OVER,
	FTDETECT_A_STATS_SHARES_DROPPED,
	FTDETECT_A_STATS_MEM_NODES,
	FTDETECT_A_STATS_MEM_RANKS,
	FTDETECT_A_STATS_ROUTE_CACHES,
	FTDETECT_A_STATS_VIEWS_ASKED,
	__FTDETECT_A_STATS_MAX
};
#define FTDETECT_A_STATS_MAX (__FTDETECT_A_STATS_MAX - 1)

/*
 * The u64 scalars of FTDETECT_A_STATS, each once, in the order tools show
 * them: X(ATTR, name, kind) for FTDETECT_A_STATS_<ATTR>. name is the key
 * `ftctl stats` prints and the field that holds it on both sides; kind is
 * counter (only grows while the module is loaded) or gauge (a value now:
 * a state, or a high-water mark). Not in it: the arrays EVENTS_BY_TYPE and
 * *_HIST, and the *_SUM_NS that go with the histograms. A new u64 goes into
 * the enum above and here, and from here into the module, the decoder and
 * the tools; the build checks that nothing in the enum was left out.
 */
#define FTDETECT_STATS_U64(X)					\
	X(TX,			tx,			counter)	\
	X(TX_ERR,		tx_err,			counter)	\
	X(RX,			rx,			counter)	\
	X(RX_MALFORMED,		rx_malformed,		counter)	\
	X(RX_FOREIGN,		rx_foreign,		counter)	\
	X(RX_BADMAC,		rx_badmac,		counter)	\
	X(EVENTS,		events,			counter)	\
	X(TICKS,		ticks,			counter)	\
	X(TICKS_LATE,		ticks_late,		counter)	\
	X(TICK_LATE_MAX_NS,	tick_late_max_ns,	gauge)		\
	X(NOTICES_TX,		notices_tx,		counter)	\
	X(NOTICES_RX,		notices_rx,		counter)	\
	X(NOTICES_DUP,		notices_dup,		counter)	\
	X(FENCED,		fenced,			counter)	\
	X(RX_STALE,		rx_stale,		counter)	\
	X(RX_REPLAY,		rx_replay,		counter)	\
	X(RX_UNPROVEN,		rx_unproven,		counter)	\
	X(REPAIRS,		repairs,		counter)	\
	X(MINORITY,		minority,		gauge)		\
	X(TICKS_RX_BEHIND,	ticks_rx_behind,	counter)	\
	X(TICKS_RX_DROPPED,	ticks_rx_dropped,	counter)	\
	X(RELAYS_ASKED,		relays_asked,		counter)	\
	X(RELAYS_SENT,		relays_sent,		counter)	\
	X(RELAYS_HEARD,		relays_heard,		counter)	\
	X(NOTICE_ITEMS_TX,	notice_items_tx,	counter)	\
	X(NOTICE_ITEMS_RX,	notice_items_rx,	counter)	\
	X(TICKS_RX_STUCK,	ticks_rx_stuck,		counter)	\
	X(SHARES_RESENT,	shares_resent,		counter)	\
	X(SHARES_HANDED_OVER,	shares_handed_over,	counter)	\
	X(SHARES_DROPPED,	shares_dropped,		counter)	\
	X(MEM_NODES,		mem_nodes,		gauge)		\
	X(MEM_RANKS,		mem_ranks,		gauge)		\
	X(ROUTE_CACHES,		route_caches,		gauge)		\
	X(VIEWS_ASKED,		views_asked,		counter)
/* The attributes of FTDETECT_A_STATS that are not in FTDETECT_STATS_U64. */
#define FTDETECT_STATS_NOT_U64	7	/* UNSPEC, PAD, EVENTS_BY_TYPE, 2 x (_HIST, _SUM_NS) */

enum ftdetect_event_attr {
	FTDETECT_A_EVENT_UNSPEC,
	FTDETECT_A_EVENT_PAD,
	FTDETECT_A_EVENT_TYPE,
	FTDETECT_A_EVENT_SEQ,
	FTDETECT_A_EVENT_TIME_NS,
	FTDETECT_A_EVENT_MONO_NS,
	FTDETECT_A_EVENT_NODE,
	FTDETECT_A_EVENT_INCARNATION,
	FTDETECT_A_EVENT_RAIL,
	FTDETECT_A_EVENT_ORIGIN,
	FTDETECT_A_EVENT_JOB,
	FTDETECT_A_EVENT_RANK,
	FTDETECT_A_EVENT_COUNT,
	FTDETECT_A_EVENT_UID,
	__FTDETECT_A_EVENT_MAX
};
#define FTDETECT_A_EVENT_MAX (__FTDETECT_A_EVENT_MAX - 1)

#endif /* _UAPI_LINUX_FTDETECT_H */
