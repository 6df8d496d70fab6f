"""The Socket.IO packet the app sends: encoded as JSON first, searched for binary parts only when
JSON refuses the payload.

python-socketio's Packet walks every payload for bytes before it encodes it (building a list
per node and reducing it). On a hall roll, 1,100 seat views, that walk cost twice the JSON
encoding itself (py-spy on `companion bench hall`). The app never sends bytes, so this packet
encodes once, keeps the text, and leaves any payload JSON cannot take to the library's binary
path. A payload argument that carries its own JSON text (`json_text`: the seat views a change
publishes, their table's shared part encoded once, hall/views.py) is not encoded again. What
goes on the wire is the library's, byte for byte (tests/test_wire.py, test_encoded_views.py).

Decoding, the packet refuses what no Socket.IO client sends (`BadPacket`): the library would
fail on it deep in its dispatch, with a traceback in the log, or run the `connect` handler again
for an event a client names "connect" (issue 17). web/guard.py closes that client's connection.
"""

from __future__ import annotations

from typing import Any

from socketio import packet

# What a client may send: no CONNECT_ERROR (only servers send it), no binary (the app takes none).
FROM_CLIENTS = (packet.CONNECT, packet.DISCONNECT, packet.EVENT, packet.ACK)
# Event names Socket.IO keeps for itself; its clients refuse to emit them.
RESERVED_EVENTS = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                             "newListener", "removeListener"})


class BadPacket(ValueError):
    """A packet no Socket.IO client sends: the client's fault, not the server's."""


class JsonFirstPacket(packet.Packet):
    def __init__(self, packet_type: int = packet.EVENT, data: Any = None, namespace: str | None = None,
                 id: int | None = None, binary: bool | None = None,
                 encoded_packet: Any = None) -> None:
        if encoded_packet is not None and len(encoded_packet) == 0:
            raise BadPacket("an empty packet")  # the library would take it for an event without data
        self._text: str | None = None
        if (binary is None and encoded_packet is None and data is not None
                and packet_type in (packet.EVENT, packet.ACK)):
            try:
                self._text = self._json_of(data)
                binary = False
            except TypeError:  # bytes in it (or worse): the library sorts it out
                pass
        super().__init__(packet_type, data, namespace, id, binary, encoded_packet)

    def _json_of(self, data: Any) -> str:
        """The payload's compact JSON; an argument that carries its own (`json_text`, as a
        published seat view does) is not encoded again."""
        if type(data) is not list:
            return str(self.json.dumps(data, separators=(",", ":")))
        parts = (getattr(part, "json_text", None) or self.json.dumps(part, separators=(",", ":"))
                 for part in data)
        return "[" + ",".join(parts) + "]"

    def encode(self) -> Any:
        if self._text is None:
            return super().encode()
        head = str(self.packet_type)
        if self.namespace is not None and self.namespace != "/":
            head += self.namespace + ","
        if self.id is not None:
            head += str(self.id)
        return head + self._text

    def decode(self, encoded_packet: Any) -> int:
        """Decode a client's packet, or raise BadPacket saying what is wrong with it."""
        if not isinstance(encoded_packet, str):
            raise BadPacket("binary data")
        try:
            attachments: int = super().decode(encoded_packet)
        except (ValueError, RecursionError):  # not JSON, too deep, a number of over 100 digits
            raise BadPacket("a Socket.IO packet that does not decode") from None
        problem = "binary attachments" if attachments else self._problem()
        if problem:
            raise BadPacket(problem)
        return attachments

    def _problem(self) -> str | None:
        """What is wrong with a decoded packet from a client, or None."""
        if self.packet_type not in FROM_CLIENTS:
            return f"a Socket.IO packet of type {self.packet_type}, which clients do not send"
        data = self.data
        if self.packet_type == packet.EVENT:
            if not (type(data) is list and data and type(data[0]) is str):
                return "an event without a name"
            if data[0] in RESERVED_EVENTS:
                return f"the reserved event {data[0]!r}"
        if self.packet_type == packet.ACK and type(data) is not list:
            return "an ack without arguments"
        return None
