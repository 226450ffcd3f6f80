#if defined(__linux__)
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include "CPeerCredentials.h"

_Static_assert(sizeof(struct ucred) == sizeof(ssokit_peer_credentials), "struct ucred's size");
_Static_assert(offsetof(struct ucred, pid) == offsetof(ssokit_peer_credentials, pid), "ucred.pid's offset");
_Static_assert(offsetof(struct ucred, uid) == offsetof(ssokit_peer_credentials, uid), "ucred.uid's offset");
_Static_assert(offsetof(struct ucred, gid) == offsetof(ssokit_peer_credentials, gid), "ucred.gid's offset");
#endif
