#!/usr/bin/env python3
"""Writes a valid Netrace v1 trace (bzip2), synthetic, for workload.arrival = netrace.

Each node runs read transactions: a ReadReq (8 bytes) to another node, answered after
a fixed latency by a ReadResp (72 bytes) that depends on the request; with probability
--chain the node's next request depends on that reply (a core that stalls on a miss),
else it comes after a geometric think time.  Some requests are Writebacks (72 bytes,
no reply).  The layout is the format's (docs/manual.md, "Netrace traces"): a 72-byte
header, notes, one 24-byte region head, then packets sorted by cycle, each 21 bytes and
its dependents' ids.  Same arguments, same bytes.

usage: netrace-gen.py [--nodes N] [--packets P] [--seed S] [--think T] [--latency L]
                      [--chain C] [--writebacks W] -o FILE.tr.bz2
"""
import argparse
import bz2
import random
import struct
import sys

MAGIC = 0x484A5455
READ_REQ, READ_RESP, WRITEBACK = 1, 2, 6
L1D, L2 = 0, 2


def generate(args):
    rnd = random.Random(args.seed)
    packets = []  # [cycle, order, type, src, dst, node_types, dependents (indices)]

    def add(cycle, ptype, src, dst, types):
        packets.append([cycle, len(packets), ptype, src, dst, types, []])
        return len(packets) - 1

    # per node: the cycle of its next request and the packet it must wait for (or None)
    ready = [rnd.randrange(1, 1 + args.think) for _ in range(args.nodes)]
    waits_on = [None] * args.nodes
    while len(packets) < args.packets:
        n = min(range(args.nodes), key=lambda v: (ready[v], v))
        t = ready[n]
        dst = rnd.randrange(args.nodes - 1)
        dst += dst >= n
        if rnd.random() < args.writebacks:
            w = add(t, WRITEBACK, n, dst, L1D << 4 | L2)
            if waits_on[n] is not None:
                packets[waits_on[n]][6].append(w)
            waits_on[n] = None
            ready[n] = t + 1 + int(rnd.expovariate(1.0 / args.think))
            continue
        q = add(t, READ_REQ, n, dst, L1D << 4 | L2)
        if waits_on[n] is not None:
            packets[waits_on[n]][6].append(q)
        r = add(t + args.latency, READ_RESP, dst, n, L2 << 4 | L1D)
        packets[q][6].append(r)
        if rnd.random() < args.chain:
            waits_on[n] = r
            ready[n] = t + args.latency + 1 + int(rnd.expovariate(1.0 / args.think))
        else:
            waits_on[n] = None
            ready[n] = t + 1 + int(rnd.expovariate(1.0 / args.think))
    packets = packets[:args.packets]
    kept = len(packets)
    order = sorted(range(kept), key=lambda i: (packets[i][0], i))
    ident = {}
    for pos, i in enumerate(order):
        ident[i] = 11 + 3 * pos  # ids are not file positions: a reader must not confuse them
    return [(packets[i][0], ident[i], packets[i][2], packets[i][3], packets[i][4], packets[i][5],
             [ident[d] for d in packets[i][6] if d < kept]) for i in order]


def write(path, args, packets):
    body = bytearray()
    for cycle, ident, ptype, src, dst, types, deps in packets:
        body += struct.pack('<QIIBBBBB', cycle, ident, 0x1000 * ident & 0xFFFFFFFF, ptype, src, dst, types, len(deps))
        body += struct.pack('<%dI' % len(deps), *deps)
    notes = ('netrace-gen.py --nodes %d --packets %d --seed %d' % (args.nodes, args.packets, args.seed)).encode() + b'\0'
    cycles = packets[-1][0] + 1 if packets else 0
    header = struct.pack('<If30sBBQQII8x', MAGIC, 1.0, b'synthetic', args.nodes, 0, cycles, len(packets), len(notes), 1)
    region = struct.pack('<QQQ', 0, cycles, len(packets))
    with bz2.open(path, 'wb') as out:
        out.write(header + notes + region + bytes(body))


def main():
    p = argparse.ArgumentParser(description='Writes a synthetic Netrace v1 trace (bzip2).')
    p.add_argument('--nodes', type=int, default=16)
    p.add_argument('--packets', type=int, default=2000)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--think', type=int, default=20, help='mean cycles between a node\'s requests')
    p.add_argument('--latency', type=int, default=20, help='cycles from a request to its reply in the trace')
    p.add_argument('--chain', type=float, default=0.5, help='probability that the next request waits for the reply')
    p.add_argument('--writebacks', type=float, default=0.1, help='share of requests that are writebacks')
    p.add_argument('-o', '--output', required=True)
    args = p.parse_args()
    if not 2 <= args.nodes <= 255 or args.packets < 1 or args.think < 1 or args.latency < 1:
        sys.exit('netrace-gen.py: need 2 <= --nodes <= 255, --packets >= 1, --think >= 1, --latency >= 1')
    if not (0 <= args.chain <= 1 and 0 <= args.writebacks <= 1):
        sys.exit('netrace-gen.py: --chain and --writebacks are probabilities, 0 to 1')
    write(args.output, args, generate(args))


if __name__ == '__main__':
    main()
