// Linux's epoll, which the Glibc module does not export. Only
// SwitchboardLoad imports this module (its raw TCP load clients).
#ifndef SWITCHBOARD_CEPOLL_SHIM_H
#define SWITCHBOARD_CEPOLL_SHIM_H

#include <sys/epoll.h>

#endif
