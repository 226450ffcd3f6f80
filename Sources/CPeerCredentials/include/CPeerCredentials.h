#ifndef SSOKIT_CPEERCREDENTIALS_H
#define SSOKIT_CPEERCREDENTIALS_H

#include <stdint.h>

/// The layout of Linux's `struct ucred` (unix(7)): what getsockopt(SO_PEERCRED) fills in for a Unix domain
/// socket's peer. glibc declares `struct ucred` only under _GNU_SOURCE, which Swift's Glibc module is built
/// without; peer_credentials.c checks that this layout is the kernel's.
typedef struct {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} ssokit_peer_credentials;

#endif
