# Sourced by the net family's tests (needs tests/lib/dirent-common.sh):
# the values every kernel must give, and those that changed between
# Debian's 6.1 and 6.12, with the reason in docs/catalogue.md ("net").
#
#   net_expect_same              every NET_SAME key has its value
#   net_expect_changed old|new   every NET_CHANGED key has its 6.1 or 6.12 value
#   net_expect_no_failures FILE  no net item failed, broke or timed out

# Contracts (checks) and values documented or fixed by the kernel's own
# constants, the same on every kernel since 5.4.
NET_SAME=(
	check.net.bind.doc.v6_any_takes_v4 pass
	check.net.bind.doc.v6only_shares_port pass
	check.net.bind.doc.same_address_in_use pass
	check.net.bind.doc.reuseaddr_bound pass
	check.net.bind.doc.reuseaddr_listening pass
	check.net.bind.doc.reuseport_listening pass
	obs.net.bind.bind3.v4_any.v6_any_v6only.v4_lo EADDRINUSE
	obs.net.bind.bind3.mapped_any.v6_any_v6only.v4_lo EADDRINUSE
	obs.net.bind.bind3.v4_any.v6_any_v6only.mapped_lo EADDRINUSE
	obs.net.bind.v6_any.v4_any.plain_listening EADDRINUSE
	obs.net.bind.timewait.plain EADDRINUSE
	obs.net.bind.timewait.reuseaddr EADDRINUSE
	obs.net.bind.v4_any.v6_any_v6only.plain_listening 0
	obs.net.listen.somaxconn 4096
	obs.net.listen.backlog.1 1
	obs.net.listen.backlog.65535 4096
	obs.net.listen.queue.backlog1.completed 2
	obs.net.listen.queue.beyond.connect EINPROGRESS
	obs.net.listen.queue.beyond.state SYN_SENT
	check.net.sockbuf.doubled pass
	obs.net.sockbuf.udp.rcvbuf.set_4096 8192
	check.net.unix.peercred pass
	check.net.unix.scm_credentials pass
	check.net.unix.seqpacket.boundaries pass
	obs.net.unix.scm_rights.max 253
	obs.net.unix.scm_rights.over EINVAL
	obs.net.unix.autobind.len 8
	obs.net.unix.autobind.form 'NUL + 5 hex digits'
	obs.net.unix.abstract.full 0
	obs.net.unix.abstract.full.len 110
	obs.net.unix.max_dgram_qlen 10
	obs.net.unix.dgram_full.sent 11
	obs.net.unix.dgram_full.errno EAGAIN
	obs.net.unix.dgram_full.blocking blocks
	obs.net.unix.peek_off.stream def
	obs.net.tcp.splice.tcp_to_pipe 4
	obs.net.tcp.sendfile.file_to_tcp 9
	obs.net.tcp.sendfile.tcp_to_pipe 4
	obs.net.tcp.nodelay.default 0
	obs.net.tcp.cork.default 0
	obs.net.tcp.zerocopy.tcp 0
	obs.net.udp.segment 0
	obs.net.udp.gro 0
	obs.net.udp.refused.recv ECONNREFUSED
	obs.net.udp.refused.errqueue 'ECONNREFUSED origin=2 type=3 code=3'
)

# KEY 6.1-VALUE 6.12-VALUE (Debian 6.1.192 and 6.12.118).
NET_CHANGED=(
	# bhash2: [::ffff:0.0.0.0] then [::ffff:127.0.0.1] did not conflict
	obs.net.bind.mapped_any.mapped_lo.plain_bound 0 EADDRINUSE
	obs.net.bind.mapped_any.mapped_lo.plain_listening 0 EADDRINUSE
	obs.net.bind.mapped_any.mapped_lo.reuseaddr_listening 0 EADDRINUSE
	# 71fc704768f6 (6.2) rcv_wnd, rehash; 3868ab0f1925 (6.7) total_rto*
	obs.net.tcp.tcp_info.size 232 248
	# 7b26952a91cf, 5e2ff6704a27 (6.5)
	obs.net.unix.peerpidfd ENOPROTOOPT pidfd
	obs.net.unix.passpidfd ENOPROTOOPT 0
	obs.net.unix.passpidfd.cmsg none SCM_PIDFD
	# f5769faeec36 (6.8), 19249c0724f2 (6.11): now in every namespace
	obs.net.initns.count 109 104
)
# Knobs of the initial namespace only on 6.1: in every namespace on 6.12.
NET_REMOVED=(
	obs.net.initns.net.core.optmem_max.value
	obs.net.initns.net.core.rmem_default.value
	obs.net.initns.net.core.rmem_max.value
	obs.net.initns.net.core.wmem_default.value
	obs.net.initns.net.core.wmem_max.value
)

net_expect_same() { expect_pairs NET_SAME; }
net_expect_changed() { expect_triples NET_CHANGED "$1"; } # old|new
net_expect_no_failures() { expect_no_failures net "$1"; } # snapshot
