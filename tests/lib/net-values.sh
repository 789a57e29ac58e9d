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
	check.net.bind.doc.reuseport_each_socket pass
	obs.net.bind.timewait.plain EADDRINUSE
	obs.net.bind.timewait.reuseaddr EADDRINUSE
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

# KEY 6.1-VALUE 6.12-VALUE (Debian 6.1.192 and 6.12.118); the cells of
# the bind matrix that changed follow the matrix's pairs below.
NET_CHANGED=(
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

# The cells of the bind matrix, KEY VALUE for each of an address pair's
# 32 (docs/catalogue.md, net.bind.*): where the two addresses overlap,
# EADDRINUSE but in the 11 cells where a reuse rule lets the sockets
# share (SO_REUSEADDR on both while the first is only bound, SO_REUSEPORT
# on both); where they do not, 0 everywhere.
net_bind_pair() { # FIRST.SECOND overlap|disjoint
	local o1 o2 st ra='reuseaddr|reuseaddrport' rp='reuseport|reuseaddrport'
	for o1 in plain reuseaddr reuseport reuseaddrport; do
		for st in bound listening; do
			for o2 in plain reuseaddr reuseport reuseaddrport; do
				local v=0
				if [[ $2 == overlap ]]; then
					v=EADDRINUSE
					[[ $st == bound && $o1 =~ ^($ra)$ && $o2 =~ ^($ra)$ ]] && v=0
					[[ $o1 =~ ^($rp)$ && $o2 =~ ^($rp)$ ]] && v=0
				fi
				echo "obs.net.bind.$1.${o1}_$st-$o2 $v"
			done
		done
	done
}

# Whole pairs the same on every kernel: the dual-stack wildcard against
# the IPv4 one in both orders (gramine#1326), the v6-only one that shares
# with it (ipv6(7)), the loopback address written twice, the v4-mapped
# loopback before the v4-mapped wildcard (the order 6.1 got right).
for pair in v6_any.v4_any:overlap v4_any.v6_any:overlap v6_any.mapped_lo:overlap \
	v6_any_v6only.v4_any:disjoint v4_any.v6_any_v6only:disjoint v4_lo.mapped_lo:overlap \
	v6_lo.v4_lo:disjoint v6_lo_v6only.v6_lo:overlap mapped_lo.mapped_any:overlap; do
	# shellcheck disable=SC2207 # keys and values have no blanks
	NET_SAME+=($(net_bind_pair "${pair%:*}" "${pair#*:}"))
done
# bhash2 on 6.1 misses [::ffff:0.0.0.0] when [::ffff:127.0.0.1] binds
# second: 0 in every cell; on 6.12 the 21 of an overlap conflict (the
# commit they point to: 5e07e672412b, 6.8).
while read -r key v; do
	[[ $v == EADDRINUSE ]] && NET_CHANGED+=("$key" 0 EADDRINUSE)
done < <(net_bind_pair mapped_any.mapped_lo overlap)

net_expect_same() { expect_pairs NET_SAME; }
net_expect_changed() { expect_triples NET_CHANGED "$1"; } # old|new
net_expect_no_failures() { expect_no_failures net "$1"; } # snapshot
