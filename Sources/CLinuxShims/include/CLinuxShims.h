#ifndef TABULA_CLINUXSHIMS_H
#define TABULA_CLINUXSHIMS_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/// Event bits, re-exported so Swift sees plain integers.
extern const uint32_t tabula_EPOLLIN;
extern const uint32_t tabula_EPOLLOUT;
extern const uint32_t tabula_EPOLLERR;
extern const uint32_t tabula_EPOLLHUP;
extern const uint32_t tabula_EPOLLRDHUP;

typedef struct {
    uint32_t events;
    uint64_t data;
} tabula_epoll_event;

int tabula_epoll_create(void);
int tabula_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
int tabula_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int tabula_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data);
int tabula_epoll_del(int epfd, int fd);
int tabula_epoll_wait(int epfd, tabula_epoll_event *events, int maxevents, int timeout);

int tabula_eventfd(void);
int tabula_eventfd_signal(int fd);
int tabula_eventfd_drain(int fd);

/// The CPUs this process may run on (its affinity mask, as taskset or a cgroup's cpuset set
/// it), at least 1.
int tabula_cpus_available(void);

/// Sets O_NONBLOCK and FD_CLOEXEC.
int tabula_set_nonblocking(int fd);
int tabula_set_nodelay(int fd);
/* TCP_NOTSENT_LOWAT: the kernel takes at most `bytes` not yet sent on the socket (what the
   peer's window lets through is not counted), so an unread connection holds that much. */
int tabula_bound_unsent(int fd, int bytes);
/// Bytes written to a socket that its peer has not taken yet (SIOCOUTQ), or -1.
int tabula_unsent(int fd);
int tabula_set_reuseaddr(int fd);
ssize_t tabula_send(int fd, const void *buf, size_t len);
ssize_t tabula_sendv(int fd, const struct iovec *iov, int iovcnt);
int tabula_accept(int fd);
/// accept4 (non-blocking, close-on-exec) that also gives the peer's address as 16 bytes:
/// IPv6 as is, IPv4 mapped (::ffff:a.b.c.d), anything else all zero.
int tabula_accept_peer(int fd, uint64_t *hi, uint64_t *lo);
/// Writes a peer address (as from tabula_accept_peer) in text into buf.
void tabula_format_peer(uint64_t hi, uint64_t lo, char *buf, int len);
/// Gives memory freed by the process back to the system: jemalloc's purge of every arena
/// when the process has jemalloc, glibc's malloc_trim when it has not; one call at a time.
void tabula_trim_memory(void);
void tabula_ignore_sigpipe(void);
int tabula_errno(void);
/// Blocks SIGINT and SIGTERM in the calling thread (and threads it starts) and returns a signalfd for them.
int tabula_signalfd_termination(void);
/// The same for the server: SIGINT, SIGTERM and SIGHUP (reload).
int tabula_signalfd_server(void);
/// Reads one signal from a signalfd: its number, or 0 when none is pending.
int tabula_signalfd_next(int fd);
/// Tells the CPU this is a spin-wait loop (x86 PAUSE, ARM YIELD).
static inline void tabula_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
/// A count that one thread writes and any thread reads (`LoopCounts`): a relaxed load and
/// store, no locked read-modify-write; atomic as the thread sanitizer sees it.
static inline void tabula_count_add(int64_t *slot, int64_t n) {
    __atomic_store_n(slot, __atomic_load_n(slot, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static inline int64_t tabula_count_read(const int64_t *slot) { return __atomic_load_n(slot, __ATOMIC_RELAXED); }

#endif
