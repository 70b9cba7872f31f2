// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload_net.c - workload models whose requests are messages between threads or I/O to a
 * device: netperf-udp, sockperf, tbench and dbench (sim/workload/workloads.h, docs/workloads.md).
 *
 * Conventions shared by every model (here and in workload_sys.c):
 *  - A thread is pinned to one CPU; when several share a CPU (--cpus smaller than the
 *    threads), the CPU runs their items one at a time in order of arrival (sim/sched/loop.h).
 *  - A message to a thread on another CPU arrives as an IPI (the sender's wakeup of the
 *    receiving task), a device completion as an IRQ, a timer as a timer item.
 *  - Every time a model draws (work, delays) has the mean its parameter gives and a spread
 *    set by --jitter-pct J: (100 - J)% of the mean is fixed, the rest is exponential. J = 0
 *    makes the model deterministic (tests compute its numbers by hand); J = 100 is a pure
 *    exponential.
 *  - Every random draw of one thread comes from one seeded stream of the loop, in an order
 *    the thread's own progress fixes, so a thread that waits on nothing but its partner
 *    draws the same numbers whatever the governor does.
 * All defaults are assumptions; docs/workloads.md says which published fact anchors each.
 */
#include "sim/workload/workloads.h"
#include "sim/engine/wheel.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <string.h>

/*
 * ==== netperf-udp ====
 *
 * netperf UDP_STREAM over loopback, as MMTests' netperf-udp runs it (sizes 64..16384): the
 * netperf sender on CPU 0 and netserver on CPU 1.
 *  - The sender is CPU-bound: it sends message after message, each costing
 *    1000 ns + msg-bytes / 4 ns (the system call, the UDP/IP stack down to the loopback
 *    device and up to the receiving socket, with a copy at 4 bytes/ns). So the message rate
 *    follows from the size, and CPU 0 never idles.
 *  - Each message is queued on the receiving socket and wakes netserver by an IPI; netserver
 *    spends 500 ns + msg-bytes / 8 ns on it (recvmsg and its copy), so it is faster than the
 *    sender and idles briefly between messages: many very short idle periods, each ended
 *    by an IPI.
 *  - The socket holds rcvbuf-bytes (net.core.rmem_default, 212992) of messages, each
 *    charged msg-bytes + 768 bytes of buffer overhead; a message that finds it full is
 *    dropped, as UDP does. A receiver slow to wake (a deep state's exit latency) falls
 *    behind, its socket fills, and the received throughput drops.
 * A request is a message received; its latency runs from its sending to netserver starting
 * on it; its bytes are msg-bytes. Throughput: MB/s received.
 */
enum { NP_MSG_BYTES, NP_RCVBUF, NP_JITTER, NP_HOUSEKEEPING, NP_HK_ALIGNED, NP_WATCHDOG, NP_VMSTAT,
       NP_KTIMERS, NP_TMIGR, NP_RCU_JIFFIES, NP_PLACEMENT, NP_MIGRATION_COST, NP_BASE_SLICE,
       NP_NEWIDLE_COST, NP_REFILL, NP_NR };

static const struct wl_param netperf_params[NP_NR] = {
	[NP_MSG_BYTES] = { "msg-bytes", "UDP payload per message", 1024, 1, 65507 },
	[NP_RCVBUF] = { "rcvbuf-bytes", "receive socket buffer", 212992, 1, 1 << 30 },
	[NP_JITTER] = JITTER_PARAM,
	[NP_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[NP_PLACEMENT] = SCHED_PARAMS,
};

enum { NP_SEND, NP_RECV };

struct netperf {
	int64_t send_ns, recv_ns;
	uint64_t bytes;
	int64_t capacity, queued;
	int jitter;
};

static int netperf_cpus(const int64_t *p)
{
	(void)p;
	return 2;
}

static int64_t netperf_tasks(const int64_t *p)
{
	(void)p;
	return 2;
}

static int netperf_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct netperf *m = model;

	(void)nr_cpus;
	(void)err;
	m->send_ns = 1000 + p[NP_MSG_BYTES] / 4;
	m->recv_ns = 500 + p[NP_MSG_BYTES] / 8;
	m->bytes = (uint64_t)p[NP_MSG_BYTES];
	m->capacity = sim_max64(1, p[NP_RCVBUF] / (p[NP_MSG_BYTES] + 768));
	m->jitter = (int)p[NP_JITTER];
	return 0;
}

static int netperf_send(struct netperf *m, struct loop *L, int64_t t, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .arrival_ns = t, .cause = WAKE_IPI, .kind = NP_SEND,
				.tid = 1 };

	it.work_ns = wl_vary(L, 0, m->send_ns, m->jitter);
	return loop_send(L, &it, err);
}

static int netperf_start(void *model, struct loop *L, struct sim_error *err)
{
	return netperf_send(model, L, 0, err);
}

static int netperf_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
			struct sim_error *err)
{
	struct netperf *m = model;
	struct loop_item it = { .cpu = 1, .arrival_ns = t, .cause = WAKE_IPI, .kind = NP_RECV,
				.tid = 2, .sync = true };

	if (done->kind == NP_RECV) {
		m->queued--;
		return loop_request_done(L, done->start_ns - done->stamp_ns, m->bytes, err);
	}
	/* The message reaches the socket, or is dropped; the sender goes on. */
	if (m->queued < m->capacity) {
		m->queued++;
		it.work_ns = wl_vary(L, 1, m->recv_ns, m->jitter);
		it.stamp_ns = t;
		if (loop_send(L, &it, err))
			return -1;
	}
	return netperf_send(m, L, t, err);
}

/* tid 1 the sender (netperf), tid 2 the receiver (netserver) */
static const char *netperf_comm(void *model, int tid)
{
	(void)model;
	return tid == 1 ? "netperf" : "netserver";
}

static const struct loop_model_ops netperf_ops = {
	.start = netperf_start,
	.done = netperf_done,
	.task_comm = netperf_comm,
};

const struct workload wl_netperf_udp = {
	.name = "netperf-udp",
	.summary = "a CPU-bound UDP sender streaming to a receiver over loopback (2 CPUs)",
	.imitates = "netperf UDP_STREAM on localhost (MMTests netperf-udp)",
	.params = netperf_params,
	.nr_params = NP_NR,
	.throughput_unit = "MB/s",
	.nr_cpus = netperf_cpus,
	.unbound = true,
	.nr_tasks = netperf_tasks,
	.tasks_rule = "a sender and a receiver",
	.model_size = sizeof(struct netperf),
	.init = netperf_init,
	.ops = &netperf_ops,
};

/*
 * ==== sockperf ====
 *
 * sockperf against a server here (`sockperf sr` on CPU 0, where the NIC's interrupt for
 * it is steered too), from a remote client, in one of two modes (--mode):
 *
 *  0, throughput (`sockperf tp`): the client sends msg-bytes UDP messages at mps per
 *     second (gaps drawn with the jitter around 1/mps), whatever the server does. Each
 *     raises a NIC interrupt; the CPU spends 1000 ns + msg-bytes / 4 ns on it (interrupt,
 *     UDP receive, copy to the application). While the CPU sleeps and wakes, arrivals wait
 *     in the NIC ring and then in the socket: at most min(ring, rcvbuf-bytes /
 *     (msg-bytes + 768)) messages (NAPI moves the ring into the socket as soon as the CPU
 *     runs, so the smaller of the two limits; 768 bytes of buffer overhead per message, as
 *     netperf-udp); one that finds them full is dropped. The figure is what the server
 *     received: a server that wakes late enough drops. A request is a message processed;
 *     its latency runs from its arrival to the CPU starting on it.
 *  1, ping-pong (`sockperf pp`, with --mps as its pacing): the client sends a message,
 *     which reaches the server wire-us later (one way: the client's stack, the wire, the
 *     NIC); the server receives it and sends the reply (2 x (1000 + msg-bytes / 4) ns),
 *     which reaches the client wire-us later; the client sends the next message then, or
 *     1/mps after the previous one if that is later. The figure is latency: sockperf
 *     reports half the round trip, and so does a request here (its bytes: msg-bytes).
 *     Every exit latency of the server's CPU adds to the round trip in full.
 *
 * The loop lets a model act only when an item's work is done, so in throughput mode
 * arrivals are produced lazily: when the CPU has nothing left to do, the next arrival is
 * sent at its time (it wakes the CPU); arrivals that fall while the CPU works are sent when
 * its current item is done, at that time, with their true arrival time as the stamp.
 */
enum { SP_MSG_BYTES, SP_MPS, SP_RING, SP_RCVBUF, SP_MODE, SP_WIRE_US, SP_JITTER, SP_HOUSEKEEPING,
       SP_HK_ALIGNED, SP_WATCHDOG, SP_VMSTAT, SP_KTIMERS, SP_TMIGR, SP_RCU_JIFFIES, SP_PLACEMENT, SP_MIGRATION_COST, SP_BASE_SLICE,
       SP_NEWIDLE_COST, SP_REFILL, SP_NR };

static const struct wl_param sockperf_params[SP_NR] = {
	[SP_MSG_BYTES] = { "msg-bytes", "UDP payload per message", 1024, 1, 65507 },
	[SP_MPS] = { "mps", "messages per second the client sends (at most, in ping-pong)",
		     100000, 1, 10000000 },
	[SP_RING] = { "ring", "NIC receive ring, in messages", 512, 1, 1 << 20 },
	[SP_RCVBUF] = { "rcvbuf-bytes", "receive socket buffer", 212992, 1, 1 << 30 },
	[SP_MODE] = { "mode", "0: throughput (sockperf tp), 1: ping-pong (sockperf pp)", 0, 0, 1 },
	[SP_WIRE_US] = { "wire-us", "one-way delay between client and server (ping-pong)", 5, 0,
			 1000000 },
	[SP_JITTER] = JITTER_PARAM,
	[SP_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[SP_PLACEMENT] = SCHED_PARAMS,
};

struct sockperf {
	int64_t gap_ns, work_ns, wire_ns;
	uint64_t bytes;
	int64_t capacity, queued;
	int64_t next_ns; /* throughput: true arrival of the next message not yet sent;
			  * ping-pong: earliest time the client may send the next one */
	int jitter;
	bool pingpong;
};

static int sockperf_cpus(const int64_t *p)
{
	(void)p;
	return 1;
}

static int64_t sockperf_tasks(const int64_t *p)
{
	(void)p;
	return 1;
}

static int sockperf_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct sockperf *m = model;

	(void)nr_cpus;
	(void)err;
	m->gap_ns = sim_max64(1, SIM_NS_PER_S / p[SP_MPS]);
	m->pingpong = p[SP_MODE] == 1;
	m->work_ns = (m->pingpong ? 2 : 1) * (1000 + p[SP_MSG_BYTES] / 4);
	m->wire_ns = US(p[SP_WIRE_US]);
	m->bytes = (uint64_t)p[SP_MSG_BYTES];
	m->capacity = sim_min64(p[SP_RING], sim_max64(1, p[SP_RCVBUF] / (p[SP_MSG_BYTES] + 768)));
	m->jitter = (int)p[SP_JITTER];
	return 0;
}

/* Throughput: send the message due at m->next_ns, arriving at `at`, unless it is full. */
static int sockperf_arrive(struct sockperf *m, struct loop *L, int64_t at, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .arrival_ns = at, .cause = WAKE_IRQ, .tid = 1 };

	if (m->queued < m->capacity) {
		m->queued++;
		it.work_ns = wl_vary(L, 1, m->work_ns, m->jitter);
		it.stamp_ns = m->next_ns;
		if (loop_send(L, &it, err))
			return -1;
	}
	m->next_ns += wl_vary(L, 0, m->gap_ns, m->jitter);
	return 0;
}

/* Ping-pong: the client sends its next message at `sent`; it reaches the server (an IRQ). */
static int sockperf_ping(struct sockperf *m, struct loop *L, int64_t sent, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .cause = WAKE_IRQ, .tid = 1, .stamp_ns = sent };

	it.arrival_ns = sent + wl_vary(L, 0, m->wire_ns, m->jitter);
	it.work_ns = wl_vary(L, 1, m->work_ns, m->jitter);
	m->next_ns = sent + m->gap_ns;
	return loop_send(L, &it, err);
}

static int sockperf_start(void *model, struct loop *L, struct sim_error *err)
{
	struct sockperf *m = model;

	if (m->pingpong)
		return sockperf_ping(m, L, 0, err);
	m->next_ns = wl_vary(L, 0, m->gap_ns, m->jitter);
	return sockperf_arrive(m, L, m->next_ns, err);
}

static int sockperf_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
			 struct sim_error *err)
{
	struct sockperf *m = model;

	if (m->pingpong) {
		/* The reply reaches the client at t + wire: half the round trip is the figure. */
		int64_t back = t + wl_vary(L, 0, m->wire_ns, m->jitter);

		if (loop_request_done(L, (back - done->stamp_ns) / 2, m->bytes, err))
			return -1;
		return sockperf_ping(m, L, sim_max64(back, m->next_ns), err);
	}
	/* Messages that arrived while this one was processed (it still holds its slot). */
	while (m->next_ns <= t)
		if (sockperf_arrive(m, L, t, err))
			return -1;
	m->queued--;
	if (loop_request_done(L, done->start_ns - done->stamp_ns, m->bytes, err))
		return -1;
	/* Nothing left to do: the next message wakes the CPU. */
	return m->queued ? 0 : sockperf_arrive(m, L, m->next_ns, err);
}

static const char *sockperf_comm(void *model, int tid)
{
	(void)model;
	(void)tid;
	return "sockperf";
}

static const struct loop_model_ops sockperf_ops = {
	.start = sockperf_start,
	.done = sockperf_done,
	.task_comm = sockperf_comm,
};

const struct workload wl_sockperf = {
	.name = "sockperf",
	.summary = "UDP from a remote client: a fixed-rate stream, or ping-pong (1 CPU)",
	.imitates = "sockperf throughput (tp) and ping-pong (pp) modes, server side",
	.params = sockperf_params,
	.nr_params = SP_NR,
	.throughput_unit = "MB/s",
	.nr_cpus = sockperf_cpus,
	.unbound = true,
	.nr_tasks = sockperf_tasks,
	.tasks_rule = "the server",
	.model_size = sizeof(struct sockperf),
	.init = sockperf_init,
	.ops = &sockperf_ops,
};

/*
 * ==== tbench ====
 *
 * tbench (dbench's network load, MMTests tbench4): `clients` clients, each with its own
 * server thread, ping-ponging requests over loopback TCP. Client k runs on CPU 2k and its
 * server on CPU 2k + 1 (with Linux's Intel numbering, different cores while 2k + 1 is
 * below the core count); with --cpus N the threads wrap onto N CPUs (thread j on CPU
 * j mod N) and share them.
 *  - The client works client-us on each response, then sends the next request. On loopback
 *    there is no wire: the sender's CPU runs the whole delivery (tcp_sendmsg, the loopback
 *    device, the receive softirq raised on the same CPU, tcp_v4_rcv, and the wakeup of the
 *    reader), net-us of its own work, and the wakeup reaches the idle receiver's CPU as an
 *    IPI at its end. So the sender is busy, not idle, while its message is delivered.
 *  - The server works server-us, then sends the response the same way (net-us of its
 *    work, then an IPI to the client's CPU).
 * Only one request of a client is in flight, so every exit latency on either side delays
 * the next request: this is how a governor that picks deep states loses tbench throughput.
 * Each CPU's idle period is thus its partner's work (and send path) plus its partner's exit
 * latency. A request's latency runs from the client starting to send it to the client
 * starting on the response; its bytes are msg-bytes (request plus response). Throughput: MB/s, as tbench
 * reports it.
 */
enum { TB_CLIENTS, TB_CPUS, TB_CLIENT_US, TB_SERVER_US, TB_NET_US, TB_MSG_BYTES, TB_JITTER,
       TB_HOUSEKEEPING, TB_HK_ALIGNED, TB_WATCHDOG, TB_VMSTAT, TB_KTIMERS, TB_TMIGR,
       TB_RCU_JIFFIES, TB_PLACEMENT, TB_MIGRATION_COST, TB_BASE_SLICE,
       TB_NEWIDLE_COST, TB_REFILL, TB_NR };

static const struct wl_param tbench_params[TB_NR] = {
	[TB_CLIENTS] = { "clients", "clients, each with its server thread", 1, 1, 2048 },
	[TB_CPUS] = { "cpus", "CPUs the threads share (0: one CPU per thread)", 0, 0,
		      MACHINE_MAX_CPUS },
	[TB_CLIENT_US] = { "client-us", "client work per response", 5, 0, 1000000 },
	[TB_SERVER_US] = { "server-us", "server work per request", 10, 0, 1000000 },
	[TB_NET_US] = { "net-us", "sender's CPU time to deliver a message over loopback", 2, 0,
			1000000 },
	[TB_MSG_BYTES] = { "msg-bytes", "bytes a request and its response move", 4096, 0,
			   1 << 30 },
	[TB_JITTER] = JITTER_PARAM,
	[TB_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[TB_PLACEMENT] = SCHED_PARAMS,
};

enum { TB_THINK, TB_REQUEST, TB_RESPONSE };

/*
 * TCP's timers on loopback (v6.12 net/ipv4/tcp_output.c, tcp_timer.c): every send (re)arms
 * the sender's retransmission timer, TCP_RTO_MIN = HZ / 5 = 200 ms (the smoothed RTT is
 * microseconds), with mod_timer() on the sending CPU; the segment is received in the same
 * CPU's softirq (loopback), which arms the receiving socket's delayed-ACK timer there,
 * TCP_DELACK_MIN = HZ / 25 = 40 ms (a ping-pong's ato stays at its minimum). The reply
 * carries the ACK, which only clears the timers' pending flags
 * (inet_csk_clear_xmit_timer(): INET_CSK_CLEAR_TIMERS is not defined), so both stay armed
 * and are pushed forward by every round: they never fire, but they are pending on the CPU
 * that sent last while it idles. Both are non-pinned timer-wheel timers (sk_reset_timer()):
 * with timer migration (v6.9+) an idle CPU's sleep length sees them only as the last active
 * CPU. With kernel-timers 0, the former model: the retransmission timer alone, exact, local.
 */
#define TB_RTO_NS (200 * SIM_NS_PER_MS)
#define TB_DELACK_NS (40 * SIM_NS_PER_MS)

struct tbench {
	int64_t client_ns, server_ns, net_ns;
	uint64_t bytes;
	int clients, cpus, jitter;
	bool ktimers; /* kernel-timers: TCP's timers on the grid (else the former model) */
	int64_t *rto_ns; /* per CPU: the earliest TCP timer armed by its last send */
};

static int tbench_cpus(const int64_t *p)
{
	return p[TB_CPUS] ? (int)p[TB_CPUS] : (int)(2 * p[TB_CLIENTS]);
}

static int64_t tbench_tasks(const int64_t *p)
{
	return 2 * p[TB_CLIENTS];
}

static int tbench_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct tbench *m = model;

	if (!p[TB_CLIENT_US] && !p[TB_SERVER_US] && !p[TB_NET_US])
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "tbench: --client-us, --server-us and --net-us are all 0: a "
				     "request would take no time");
	m->client_ns = US(p[TB_CLIENT_US]);
	m->server_ns = US(p[TB_SERVER_US]);
	m->net_ns = US(p[TB_NET_US]);
	m->bytes = (uint64_t)p[TB_MSG_BYTES];
	m->clients = (int)p[TB_CLIENTS];
	m->cpus = nr_cpus;
	m->jitter = (int)p[TB_JITTER];
	m->ktimers = p[TB_KTIMERS] != 0;
	m->rto_ns = sim_calloc((size_t)nr_cpus, sizeof(*m->rto_ns));
	if (!m->rto_ns)
		return sim_error_nomem(err, "");
	for (int i = 0; i < nr_cpus; i++)
		m->rto_ns[i] = SIM_TIME_NEVER;
	return 0;
}

static void tbench_fini(void *model)
{
	struct tbench *m = model;

	sim_free(m->rto_ns);
}

static int64_t tbench_armed_timer(void *model, int cpu, int64_t t)
{
	struct tbench *m = model;

	(void)t;
	return m->rto_ns[cpu];
}

/* Client k is thread 2k, its server thread 2k + 1. */
static int tbench_cpu(const struct tbench *m, int client, int server)
{
	return (2 * client + server) % m->cpus;
}

static int tbench_start(void *model, struct loop *L, struct sim_error *err)
{
	struct tbench *m = model;
	struct loop_item it = { .arrival_ns = 0, .cause = WAKE_IPI, .kind = TB_THINK };

	for (it.task = 0; it.task < m->clients; it.task++) {
		it.cpu = tbench_cpu(m, it.task, 0);
		it.tid = 2 * it.task + 1;
		it.work_ns = wl_vary(L, it.task, m->client_ns, m->jitter) + m->net_ns;
		if (loop_send(L, &it, err))
			return -1;
	}
	return 0;
}

static int tbench_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		       struct sim_error *err)
{
	struct tbench *m = model;
	struct loop_item it = { .arrival_ns = t, .cause = WAKE_IPI, .task = done->task,
				.sync = true };

	/* The message is delivered (the item's work ended with the send path): the IPI wakes
	 * the receiver now. Every message sent (re)arms its socket's retransmission timer and
	 * the receiver's delayed-ACK timer on this CPU: the earlier is the delayed ACK. */
	m->rto_ns[done->cpu] = m->ktimers ? sim_min64(loop_wheel_expiry(L, TB_RTO_NS),
						      loop_wheel_expiry(L, TB_DELACK_NS))
					  : t + TB_RTO_NS;
	if (done->kind == TB_REQUEST) {
		/* The server answers. */
		it.cpu = tbench_cpu(m, done->task, 0);
		it.tid = 2 * done->task + 1;
		it.kind = TB_RESPONSE;
		it.work_ns = wl_vary(L, done->task, m->client_ns, m->jitter) + m->net_ns;
		it.stamp_ns = done->stamp_ns;
		return loop_send(L, &it, err);
	}
	if (done->kind == TB_RESPONSE &&
	    loop_request_done(L, done->start_ns - done->stamp_ns, m->bytes, err))
		return -1;
	/* The client sends its next request. */
	it.cpu = tbench_cpu(m, done->task, 1);
	it.tid = 2 * done->task + 2;
	it.kind = TB_REQUEST;
	it.work_ns = wl_vary(L, done->task, m->server_ns, m->jitter) + m->net_ns;
	it.stamp_ns = t - m->net_ns; /* when the client began sending it */
	return loop_send(L, &it, err);
}

/* client k is tid 2k + 1, its server 2k + 2 */
static const char *tbench_comm(void *model, int tid)
{
	(void)model;
	return tid % 2 ? "tbench" : "tbench_srv";
}

static const struct loop_model_ops tbench_ops = {
	.start = tbench_start,
	.done = tbench_done,
	.armed_timer = tbench_armed_timer,
	.task_comm = tbench_comm,
};

const struct workload wl_tbench = {
	.name = "tbench",
	.summary = "clients ping-ponging requests with their server threads over loopback",
	.imitates = "tbench (dbench's network load; MMTests tbench4)",
	.params = tbench_params,
	.nr_params = TB_NR,
	.throughput_unit = "MB/s",
	.nr_cpus = tbench_cpus,
	.unbound = true,
	.nr_tasks = tbench_tasks,
	.tasks_from = { "clients" },
	.tasks_rule = "2 x clients",
	.mmtests_param = "clients",
	.mmtests_per_cpu = 4,
	.model_size = sizeof(struct tbench),
	.init = tbench_init,
	.fini = tbench_fini,
	.ops = &tbench_ops,
};

/*
 * ==== dbench ====
 *
 * dbench (MMTests dbench4) on a fast block device: `clients` clients, client k on CPU k
 * (with --cpus N: CPU k mod N). Each client works client-us, then submits an operation and
 * sleeps in iowait until it completes (loop_iowait: its CPU has a task in iowait), then
 * works client-us on the result and submits the next. All clients share one filesystem:
 *  - one device, which serves `channels` I/Os at once (its internal parallelism), each in
 *    io-latency-us (drawn with the jitter from the device's own stream); an I/O submitted
 *    while every channel is busy waits for the first to free, in submission order (a FIFO
 *    multi-server queue), so completion latency grows with the clients beyond `channels`;
 *  - one journal: one operation in flush-every of a client is a flush (fsync, a journal
 *    commit; at irregular points, db_flush_gap()), which takes flush-latency-us; commits
 *    run one at a time, and a flush
 *    submitted while one runs waits for the next, which takes every flush submitted before
 *    it starts (group commit, as jbd2 does).
 * The completion comes back by an interrupt on the submitting CPU, as blk-mq's per-CPU
 * queues do on NVMe. So idle periods are bimodal (device latency, commit latency), they
 * carry iowait, and they lengthen with the number of clients.
 * A request is one operation; its latency runs from the submission to the client starting
 * on the completion; its bytes are io-bytes (0 for a flush). Throughput: MB/s, as dbench
 * reports it.
 */
enum { DB_CLIENTS, DB_CPUS, DB_CLIENT_US, DB_IO_US, DB_IO_BYTES, DB_FLUSH_EVERY, DB_FLUSH_SPREAD,
       DB_FLUSH_US, DB_CHANNELS, DB_RCU_EVERY, DB_JITTER, DB_HOUSEKEEPING, DB_HK_ALIGNED, DB_WATCHDOG,
       DB_VMSTAT, DB_KTIMERS, DB_TMIGR, DB_RCU_JIFFIES, DB_PLACEMENT, DB_MIGRATION_COST, DB_BASE_SLICE,
       DB_NEWIDLE_COST, DB_REFILL, DB_NR };

static const struct wl_param dbench_params[DB_NR] = {
	[DB_CLIENTS] = { "clients", "clients, each with one I/O in flight", 1, 1, 4096 },
	[DB_CPUS] = { "cpus", "CPUs the clients share (0: one CPU per client)", 0, 0,
		      MACHINE_MAX_CPUS },
	[DB_CLIENT_US] = { "client-us", "client work per operation", 20, 0, 1000000 },
	[DB_IO_US] = { "io-latency-us", "mean device service time of an I/O", 80, 1, 10000000 },
	[DB_IO_BYTES] = { "io-bytes", "bytes an operation moves", 4096, 0, 1 << 30 },
	[DB_FLUSH_EVERY] = { "flush-every", "every N-th operation is a flush (0: none)", 32, 0,
			     1000000 },
	[DB_FLUSH_SPREAD] = { "flush-spread-pct",
			      "spread of the operations between a client's flushes: the exponential "
			      "share of flush-every (0: exactly every flush-every-th)",
			      100, 0, 100 },
	[DB_FLUSH_US] = { "flush-latency-us", "mean duration of a journal commit", 2000, 1,
			  10000000 },
	[DB_CHANNELS] = { "channels", "I/Os the device serves at once", 4, 1, 4096 },
	[DB_RCU_EVERY] = { "rcu-every", "every N-th operation queues RCU callbacks (0: none)", 12,
			   0, 1000000 },
	[DB_JITTER] = JITTER_PARAM,
	[DB_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[DB_PLACEMENT] = SCHED_PARAMS,
};

enum { DB_START, DB_IO, DB_FLUSH };

/* The device's and the journal's draws come from this stream, in submission order. */
#define DB_DEVICE_STREAM (LOOP_STREAMS - 2)

/*
 * The kernel timers of dbench's file system work (kernel-timers 1), besides the RCU
 * callbacks (rcu-every) and the journal's commit timer (jbd2, below):
 *  - writeback: wb_workfn, the bdi's delayed work on the unbound bdi_wq (a global timer),
 *    every dirty_writeback_interval = 5 s while pages are dirty (mm/page-writeback.c,
 *    mm/backing-dev.c wb_wakeup_delayed());
 *  - the block layer's request timeout, blk_rq_timed_out_timer (q->timeout, global): armed
 *    by the first request at most BLK_MAX_TIMEOUT = 5 s + roundup_pow_of_two(HZ) jiffies
 *    (1.024 s at HZ 250 and 1000) ahead and re-armed by its work while I/O is in flight
 *    (block/blk-timeout.c, blk-mq.c blk_mq_timeout_work()).
 * What their callbacks cost is an assumption (20 and 5 us).
 */
static const struct wl_ktimer dbench_ktimers[] = {
	{ "wb_workfn", "dirty_writeback_interval, 5 s", 5000 * SIM_NS_PER_MS, 20000, false },
	{ "blk_rq_timed_out_timer", "BLK_MAX_TIMEOUT + roundup_pow_of_two(HZ) jiffies",
	  6024 * SIM_NS_PER_MS, 5000, false },
};

/*
 * The journal's commit timer (fs/jbd2/transaction.c jbd2_get_transaction(): j_commit_timer,
 * global, at round_jiffies_up(start + j_commit_interval), 5 s): armed on the CPU whose
 * operation opens a transaction, deleted by the commit (an fsync here), so with flushes
 * it never fires; an armed timer, as TCP's. With --flush-every 0 the kernel would commit
 * every 5 s: that commit is left out.
 */
#define DB_COMMIT_INTERVAL_NS (5000 * SIM_NS_PER_MS)

struct dbench {
	int64_t client_ns, io_ns, flush_ns, flush_every, rcu_every;
	bool ktimers;
	bool txn_open;		 /* a transaction is running (its commit timer armed) */
	int commit_timer_cpu;	 /* where it is armed */
	int64_t commit_timer_ns; /* its expiry (a jiffy edge) */
	uint64_t bytes;
	int clients, cpus, jitter, channels;
	int flush_spread;
	int64_t *ops;	     /* operations submitted, per client */
	int64_t *next_flush; /* per client: the operation (count) that is its next flush */
	int64_t *free_ns; /* per channel: when it is free */
	int64_t commit_start_ns, commit_end_ns; /* the last commit scheduled */
};

static int dbench_cpus(const int64_t *p)
{
	return p[DB_CPUS] ? (int)p[DB_CPUS] : (int)p[DB_CLIENTS];
}

static int64_t dbench_tasks(const int64_t *p)
{
	return p[DB_CLIENTS];
}

static int dbench_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct dbench *m = model;

	m->client_ns = US(p[DB_CLIENT_US]);
	m->io_ns = US(p[DB_IO_US]);
	m->flush_ns = US(p[DB_FLUSH_US]);
	m->flush_every = p[DB_FLUSH_EVERY];
	m->bytes = (uint64_t)p[DB_IO_BYTES];
	m->clients = (int)p[DB_CLIENTS];
	m->channels = (int)p[DB_CHANNELS];
	m->cpus = nr_cpus;
	m->jitter = (int)p[DB_JITTER];
	m->ktimers = p[DB_KTIMERS] != 0;
	m->rcu_every = m->ktimers ? p[DB_RCU_EVERY] : 0;
	m->commit_timer_cpu = -1;
	m->commit_start_ns = m->commit_end_ns = -1;
	m->flush_spread = (int)p[DB_FLUSH_SPREAD];
	m->ops = sim_calloc((size_t)m->clients, sizeof(*m->ops));
	m->next_flush = sim_calloc((size_t)m->clients, sizeof(*m->next_flush));
	m->free_ns = sim_calloc((size_t)m->channels, sizeof(*m->free_ns));
	return m->ops && m->next_flush && m->free_ns ? 0 : sim_error_nomem(err, "");
}

static void dbench_fini(void *model)
{
	struct dbench *m = model;

	sim_free(m->ops);
	sim_free(m->next_flush);
	sim_free(m->free_ns);
}

/* When an I/O submitted at t completes: on the channel that frees first. */
static int64_t db_io_done(struct dbench *m, struct loop *L, int64_t t)
{
	int i, k = 0;

	for (i = 1; i < m->channels; i++)
		if (m->free_ns[i] < m->free_ns[k])
			k = i;
	m->free_ns[k] = sim_max64(t, m->free_ns[k]) +
			wl_vary(L, DB_DEVICE_STREAM, m->io_ns, m->jitter);
	return m->free_ns[k];
}

/*
 * Operations from one flush of client c to its next: 1 + the rest of flush-every, whose
 * exponential share flush-spread-pct is drawn from the client's stream and rounded (mean
 * flush-every to 0.1 % from flush-every 8; exactly it with spread 0; 1 for flush-every 1).
 * dbench's loadfile has its fsyncs at irregular points of the operation mix; a fixed period
 * (spread 0, the model before the option) keeps clients that one group commit released
 * together in step, flush after flush (docs/benchmarks.md "dbench-16 on skl").
 */
static int64_t db_flush_gap(struct dbench *m, struct loop *L, int c)
{
	int64_t milli = wl_vary(L, c, (m->flush_every - 1) * 1000, m->flush_spread);

	return 1 + (milli + 500) / 1000;
}

/* When a flush submitted at t completes: with the commit it joins (group commit). */
static int64_t db_flush_done(struct dbench *m, struct loop *L, int64_t t)
{
	if (t <= m->commit_start_ns)
		return m->commit_end_ns; /* the commit has not started yet: join it */
	m->commit_start_ns = sim_max64(t, m->commit_end_ns);
	m->commit_end_ns = m->commit_start_ns + wl_vary(L, DB_DEVICE_STREAM, m->flush_ns, m->jitter);
	return m->commit_end_ns;
}

static int dbench_start(void *model, struct loop *L, struct sim_error *err)
{
	struct dbench *m = model;
	struct loop_item it = { .arrival_ns = 0, .cause = WAKE_IPI, .kind = DB_START };

	for (it.task = 0; it.task < m->clients; it.task++) {
		it.cpu = it.task % m->cpus;
		it.tid = it.task + 1;
		it.work_ns = wl_vary(L, it.task, m->client_ns, m->jitter);
		if (m->flush_every)
			m->next_flush[it.task] = db_flush_gap(m, L, it.task);
		if (loop_send(L, &it, err))
			return -1;
	}
	return 0;
}

static int dbench_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		       struct sim_error *err)
{
	struct dbench *m = model;
	int c = done->task;
	struct loop_item it = { .cpu = done->cpu, .cause = WAKE_IRQ, .task = c, .tid = c + 1,
				.stamp_ns = t };
	bool flush;

	if (done->kind != DB_START) {
		/* The completion woke the client, which has now dealt with it. */
		loop_iowait(L, done->cpu, -1);
		if (loop_request_done(L, done->start_ns - done->stamp_ns,
				      done->kind == DB_FLUSH ? 0 : m->bytes, err))
			return -1;
	}
	if (done->kind == DB_FLUSH) /* committed: the commit timer is deleted */
		m->txn_open = false;
	if (m->ktimers && !m->txn_open) { /* this operation opens the next transaction */
		const struct jiffy_grid *g = loop_grid(L);
		int64_t now = jiffy_of(g, t);
		int64_t j = round_jiffies_abs(g->hz, done->cpu,
					      now + jiffies_round_up(g, DB_COMMIT_INTERVAL_NS), now,
					      true);

		m->txn_open = true;
		m->commit_timer_cpu = done->cpu;
		m->commit_timer_ns = jiffy_edge_ns(g, wheel_bucket_expiry(g->hz, j, now));
	}
	/* The next operation: its completion comes back on this CPU. */
	flush = m->flush_every && ++m->ops[c] == m->next_flush[c];
	if (flush)
		m->next_flush[c] += db_flush_gap(m, L, c);
	it.kind = flush ? DB_FLUSH : DB_IO;
	it.arrival_ns = flush ? db_flush_done(m, L, t) : db_io_done(m, L, t);
	it.work_ns = wl_vary(L, c, m->client_ns, m->jitter);
	/* The client's work on this operation's result (unlinks, renames: dentries and inodes
	 * freed through call_rcu()) queues RCU callbacks on its CPU. */
	it.rcu = m->rcu_every && m->ops[c] % m->rcu_every == 0;
	loop_iowait(L, done->cpu, +1);
	return loop_send(L, &it, err);
}

static int64_t dbench_armed_timer(void *model, int cpu, int64_t t)
{
	const struct dbench *m = model;

	(void)t;
	return m->txn_open && cpu == m->commit_timer_cpu ? m->commit_timer_ns : SIM_TIME_NEVER;
}

static const char *dbench_comm(void *model, int tid)
{
	(void)model;
	(void)tid;
	return "dbench";
}

static const struct loop_model_ops dbench_ops = {
	.start = dbench_start,
	.done = dbench_done,
	.armed_timer = dbench_armed_timer,
	.task_comm = dbench_comm,
};

const struct workload wl_dbench = {
	.name = "dbench",
	.summary = "clients doing synchronous I/O to one shared device and journal, in iowait",
	.imitates = "dbench on a fast block device (MMTests dbench4)",
	.params = dbench_params,
	.nr_params = DB_NR,
	.throughput_unit = "MB/s",
	.nr_cpus = dbench_cpus,
	.unbound = true,
	.nr_tasks = dbench_tasks,
	.tasks_from = { "clients" },
	.tasks_rule = "one per client",
	.mmtests_param = "clients",
	.mmtests_per_cpu = 8,
	.model_size = sizeof(struct dbench),
	.ktimers = dbench_ktimers,
	.nr_ktimers = SIM_ARRAY_SIZE(dbench_ktimers),
	.init = dbench_init,
	.fini = dbench_fini,
	.ops = &dbench_ops,
};
