"""The app's Socket.IO packet (companion/web/wire.py) says exactly what python-socketio's own
packet says, for every payload, while skipping the library's walk for binary parts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from socketio import packet

from companion.web import socketio
from companion.web.wire import JsonFirstPacket

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=25,
)
with_bytes = st.recursive(
    json_values | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=25,
)
addresses = st.sampled_from([(None, None), ("/", None), ("/hall", None), (None, 7), ("/x", 12)])


def both(packet_type: int, data: object, namespace: str | None, id: int | None) -> tuple:
    ours = JsonFirstPacket(packet_type, data=data, namespace=namespace, id=id)
    theirs = packet.Packet(packet_type, data=data, namespace=namespace, id=id)
    return ours, theirs


@given(st.text(min_size=1), json_values, addresses, st.sampled_from([packet.EVENT, packet.ACK]))
def test_a_json_payload_is_encoded_exactly_as_the_library_encodes_it(event, data, address, kind):
    ours, theirs = both(kind, [event, data], *address)
    assert ours.packet_type == theirs.packet_type == kind
    assert ours.encode() == theirs.encode()


@given(with_bytes, addresses)
def test_a_payload_with_bytes_still_goes_as_a_binary_event_with_attachments(data, address):
    ours, theirs = both(packet.EVENT, ["view", data], *address)
    assert ours.packet_type == theirs.packet_type
    assert ours.encode() == theirs.encode()


def test_bytes_make_a_binary_event_and_attachments():
    ours = JsonFirstPacket(packet.EVENT, data=["file", {"raw": b"\x00\x01"}])
    assert ours.packet_type == packet.BINARY_EVENT
    assert ours.encode() == ['51-["file",{"raw":{"_placeholder":true,"num":0}}]', b"\x00\x01"]


def test_packets_without_data_and_received_packets_decode_as_before():
    assert JsonFirstPacket(packet.CONNECT, namespace="/").encode() == "0"
    received = JsonFirstPacket(encoded_packet='2/hall,5["move",{"kind":"end_turn"}]')
    assert (received.packet_type, received.namespace, received.id, received.data) == (
        packet.EVENT, "/hall", 5, ["move", {"kind": "end_turn"}])


def test_the_app_sends_with_this_packet(app):
    assert socketio.server.packet_class is JsonFirstPacket
