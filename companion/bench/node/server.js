// The Node.js reference server of `companion bench hall` (not part of the app): socket.io 4.8,
// the strongest library server we know, sending each roll as one `io.emit` (socket.io encodes
// the packet, and its websocket frame, once for every phone).
//
//   node server.js --port P --view-file F
//
// Serves 127.0.0.1 only. A phone connects with auth {token: T} (refused without one), joins
// the room `token:T` and gets the view in F (JSON) at once, and the last roll's message if the
// event is `turn` (the big Catan event's phones, as the python floor does). `move` is acked at
// once with that view. `POST /roll` with {"event": E, "message": M, "answer": A}: one
// `io.emit(E, M)`, then A as the answer. The bench makes M (the same JSON the python floor
// sends, companion/bench/reference.py) before it starts the roll's clock, so the figure is the
// library's fan-out alone.
"use strict";

const fs = require("fs");
const http = require("http");
const { Server } = require("socket.io");

function option(name) {
  const at = process.argv.indexOf(name);
  if (at < 0 || at + 1 >= process.argv.length) {
    throw new Error(`${name} is required`);
  }
  return process.argv[at + 1];
}

const port = Number(option("--port"));
const view = JSON.parse(fs.readFileSync(option("--view-file"), "utf8"));
let lastTurn = null;

function answer(response, status, body) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

const server = http.createServer((request, response) => {
  if (request.url === "/healthz") {
    answer(response, 200, { ok: true });
    return;
  }
  if (request.url !== "/roll" || request.method !== "POST") {
    answer(response, 404, {});
    return;
  }
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    let roll;
    try {
      roll = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      answer(response, 400, { error: "the body is not JSON" });
      return;
    }
    if (typeof roll.event !== "string" || roll.message === undefined) {
      answer(response, 400, { error: "event and message are required" });
      return;
    }
    if (roll.event === "turn") {
      lastTurn = roll.message;
    }
    io.emit(roll.event, roll.message);
    answer(response, 200, roll.answer ?? {});
  });
});

// The app's Engine.IO settings (companion/web/__init__.py): ping every 10 s, 20 s to answer.
const io = new Server(server, { pingInterval: 10000, pingTimeout: 20000, serveClient: false });

io.use((socket, next) => {
  const token = socket.handshake.auth && socket.handshake.auth.token;
  next(typeof token === "string" ? undefined : new Error("a token is required"));
});

io.on("connection", (socket) => {
  socket.join(`token:${socket.handshake.auth.token}`);
  socket.emit("view", view);
  if (lastTurn !== null) {
    socket.emit("turn", lastTurn);
  }
  socket.on("move", (payload, ack) => {
    if (typeof ack === "function") {
      ack({ ok: true, view });
    }
  });
});

server.listen(port, "127.0.0.1", () => {
  const version = require("socket.io/package.json").version;
  console.log(`node reference: socket.io ${version} on node ${process.version}, serving on 127.0.0.1:${port}`);
});
