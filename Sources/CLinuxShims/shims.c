#define _GNU_SOURCE
#include <pthread.h>
#include "CLinuxShims.h"
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
#include <arpa/inet.h>
#include <malloc.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

const uint32_t tabula_EPOLLIN = EPOLLIN;
const uint32_t tabula_EPOLLOUT = EPOLLOUT;
const uint32_t tabula_EPOLLERR = EPOLLERR;
const uint32_t tabula_EPOLLHUP = EPOLLHUP;
const uint32_t tabula_EPOLLRDHUP = EPOLLRDHUP;

int tabula_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int tabula_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
int tabula_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) { return tabula_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, events, data); }
int tabula_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data) { return tabula_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, events, data); }
int tabula_epoll_del(int epfd, int fd) { return tabula_epoll_ctl(epfd, EPOLL_CTL_DEL, fd, 0, 0); }

int tabula_epoll_wait(int epfd, tabula_epoll_event *out, int maxevents, int timeout) {
    struct epoll_event evs[256];
    if (maxevents > 256) maxevents = 256;
    int n;
    do { n = epoll_wait(epfd, evs, maxevents, timeout); } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; i++) { out[i].events = evs[i].events; out[i].data = evs[i].data.u64; }
    return n;
}

int tabula_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
int tabula_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t r;
    do { r = write(fd, &one, sizeof one); } while (r < 0 && errno == EINTR);
    return r == sizeof one || errno == EAGAIN ? 0 : -1;
}
int tabula_eventfd_drain(int fd) {
    uint64_t v;
    ssize_t r;
    do { r = read(fd, &v, sizeof v); } while (r < 0 && errno == EINTR);
    return r == sizeof v ? 0 : -1;
}

int tabula_set_nonblocking(int fd) {
    int fl = fcntl(fd, F_GETFL, 0);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
    int fdfl = fcntl(fd, F_GETFD, 0);
    if (fdfl < 0) return -1;
    return fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC);
}
int tabula_set_nodelay(int fd) { int one = 1; return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); }
int tabula_bound_unsent(int fd, int bytes) { return setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes, sizeof bytes); }
int tabula_unsent(int fd) { int n = 0; return ioctl(fd, SIOCOUTQ, &n) < 0 ? -1 : n; }
int tabula_set_reuseaddr(int fd) { int one = 1; return setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); }
ssize_t tabula_send(int fd, const void *buf, size_t len) {
    ssize_t r;
    do { r = send(fd, buf, len, MSG_NOSIGNAL); } while (r < 0 && errno == EINTR);
    return r;
}
ssize_t tabula_sendv(int fd, const struct iovec *iov, int iovcnt) {
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = (struct iovec *)iov;
    msg.msg_iovlen = iovcnt;
    ssize_t r;
    do { r = sendmsg(fd, &msg, MSG_NOSIGNAL); } while (r < 0 && errno == EINTR);
    return r;
}
int tabula_accept(int fd) {
    int r;
    do { r = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); } while (r < 0 && errno == EINTR);
    return r;
}
int tabula_accept_peer(int fd, uint64_t *hi, uint64_t *lo) {
    struct sockaddr_storage ss;
    socklen_t len;
    int r;
    do {
        len = sizeof ss;
        r = accept4(fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (r < 0 && errno == EINTR);
    uint8_t a[16] = {0};
    if (r >= 0 && ss.ss_family == AF_INET6) {
        memcpy(a, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
    } else if (r >= 0 && ss.ss_family == AF_INET) {
        a[10] = 0xff; a[11] = 0xff;
        memcpy(a + 12, &((struct sockaddr_in *)&ss)->sin_addr, 4);
    }
    uint64_t h = 0, l = 0;
    for (int i = 0; i < 8; i++) { h = (h << 8) | a[i]; l = (l << 8) | a[8 + i]; }
    *hi = h; *lo = l;
    return r;
}
void tabula_format_peer(uint64_t hi, uint64_t lo, char *buf, int len) {
    uint8_t a[16];
    for (int i = 7; i >= 0; i--) { a[i] = hi & 0xff; hi >>= 8; a[8 + i] = lo & 0xff; lo >>= 8; }
    static const uint8_t mapped[12] = {0,0,0,0,0,0,0,0,0,0,0xff,0xff};
    if (memcmp(a, mapped, 12) == 0) inet_ntop(AF_INET, a + 12, buf, len);
    else inet_ntop(AF_INET6, a, buf, len);
}
// jemalloc's control call, when the process has it (tabulad links it; the tests do not).
extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));
// Loops trim when their clients close, often in the same second: one at a time.
static pthread_mutex_t trim_lock = PTHREAD_MUTEX_INITIALIZER;
void tabula_trim_memory(void) {
    pthread_mutex_lock(&trim_lock);
    if (mallctl) {
        // "arena.4096.purge" (4096 is MALLCTL_ARENAS_ALL): every arena's unused dirty pages
        // go back to the system at once, rather than when their decay (10 s) next runs.
        // glibc's malloc_trim is not called then: glibc's heap holds nothing (jemalloc
        // serves every allocation), and its first call sets that heap up, which two
        // threads calling it at once can race (tabulad once died in it, SIGSEGV in
        // malloc_trim, as both loops trimmed after a benchmark's clients closed).
        mallctl("arena.4096.purge", NULL, NULL, NULL, 0);
    } else {
        malloc_trim(0);
    }
    pthread_mutex_unlock(&trim_lock);
}
void tabula_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
int tabula_errno(void) { return errno; }
int tabula_signalfd_server(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}
int tabula_signalfd_next(int fd) {
    struct signalfd_siginfo si;
    ssize_t n = read(fd, &si, sizeof si);
    return n == (ssize_t)sizeof si ? (int)si.ssi_signo : 0;
}
int tabula_signalfd_termination(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int tabula_cpus_available(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}
