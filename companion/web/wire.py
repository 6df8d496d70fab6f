"""The Socket.IO packet the app sends: encoded as JSON first, searched for binary parts only when
JSON refuses the payload.

python-socketio's Packet walks every payload for bytes before it encodes it (building a list
per node and reducing it). On a hall roll, 1,100 seat views, that walk cost twice the JSON
encoding itself (py-spy on `companion bench hall`). The app never sends bytes, so this packet
encodes once, keeps the text, and leaves any payload JSON cannot take to the library's binary
path. A payload argument that carries its own JSON text (`json_text`: the seat views a change
publishes, their table's shared part encoded once, hall/views.py) is not encoded again. What
goes on the wire is the library's, byte for byte (tests/test_wire.py, test_encoded_views.py).
"""

from __future__ import annotations

from typing import Any

from socketio import packet


class JsonFirstPacket(packet.Packet):
    def __init__(self, packet_type: int = packet.EVENT, data: Any = None, namespace: str | None = None,
                 id: int | None = None, binary: bool | None = None,
                 encoded_packet: Any = None) -> None:
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
