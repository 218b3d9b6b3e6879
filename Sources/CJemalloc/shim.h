// jemalloc (Debian's libjemalloc-dev), linked into tabulad so that its malloc and free serve
// the whole process in place of glibc's (see Allocator.swift). Only mallctl is declared here:
// jemalloc.h would declare malloc and free a second time beside Glibc's.
#include <stddef.h>
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
