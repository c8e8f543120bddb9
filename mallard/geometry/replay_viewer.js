// mallard's replay viewer: draws the scene of a replay page (mallard/geometry/_replay.py) with
// WebGL 1, and plays its recorded frame poses. Matrices are column-major Float32Arrays, World
// is z up. The page's URL may end with "#t=SECONDS" (paused at that time) and "&floor=0" (no
// floor grid and axes).
(function () {
  "use strict";
  var scene = JSON.parse(document.getElementById("mallard-scene").textContent);
  var canvas = document.getElementById("view");
  var gl = canvas.getContext("webgl", { antialias: true, preserveDrawingBuffer: true });
  if (!gl) {
    document.getElementById("title").insertAdjacentHTML(
      "beforeend", "<div>This browser cannot draw WebGL: nothing to show.</div>");
    return;
  }

  // ---- data ----------------------------------------------------------------------------------
  function decode(text) {
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }
  var times = new Float64Array(decode(scene.times));
  var poses = new Float32Array(decode(scene.poses)); // per time, per frame: x y z qx qy qz qw
  var follow = scene.follow ? new Float32Array(decode(scene.follow)) : null; // box centers
  var F = scene.num_frames;
  var T0 = times[0], T1 = times[times.length - 1];

  // ---- matrices ------------------------------------------------------------------------------
  function identity() { var m = new Float32Array(16); m[0] = m[5] = m[10] = m[15] = 1; return m; }
  function multiply(a, b) {
    var r = new Float32Array(16);
    for (var c = 0; c < 4; c++) {
      for (var i = 0; i < 4; i++) {
        r[4 * c + i] = a[i] * b[4 * c] + a[4 + i] * b[4 * c + 1] + a[8 + i] * b[4 * c + 2] +
          a[12 + i] * b[4 * c + 3];
      }
    }
    return r;
  }
  function fromRows(p) { // [R | p] given row by row (12 numbers)
    var m = identity();
    for (var i = 0; i < 3; i++) {
      for (var j = 0; j < 3; j++) m[4 * j + i] = p[4 * i + j];
      m[12 + i] = p[4 * i + 3];
    }
    return m;
  }
  function scaling(x, y, z) { var m = identity(); m[0] = x; m[5] = y; m[10] = z; return m; }
  function translation(x, y, z) { var m = identity(); m[12] = x; m[13] = y; m[14] = z; return m; }
  function fromPose(x, y, z, qx, qy, qz, qw) {
    var m = identity();
    m[0] = 1 - 2 * (qy * qy + qz * qz); m[4] = 2 * (qx * qy - qz * qw); m[8] = 2 * (qx * qz + qy * qw);
    m[1] = 2 * (qx * qy + qz * qw); m[5] = 1 - 2 * (qx * qx + qz * qz); m[9] = 2 * (qy * qz - qx * qw);
    m[2] = 2 * (qx * qz - qy * qw); m[6] = 2 * (qy * qz + qx * qw); m[10] = 1 - 2 * (qx * qx + qy * qy);
    m[12] = x; m[13] = y; m[14] = z;
    return m;
  }
  function normalMatrix(m) { // the inverse transpose of m's upper 3x3, as a mat3
    var a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], k = m[10];
    var A = e * k - f * h, B = f * g - d * k, C = d * h - e * g;
    var det = a * A + b * B + c * C || 1;
    return new Float32Array([
      A / det, B / det, C / det,
      (c * h - b * k) / det, (a * k - c * g) / det, (b * g - a * h) / det,
      (b * f - c * e) / det, (c * d - a * f) / det, (a * e - b * d) / det]);
  }
  function perspective(fovy, aspect, near, far) {
    var f = 1 / Math.tan(fovy / 2), m = new Float32Array(16);
    m[0] = f / aspect; m[5] = f; m[10] = (far + near) / (near - far); m[11] = -1;
    m[14] = 2 * far * near / (near - far);
    return m;
  }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }
  function normalize(a) { var n = Math.sqrt(dot(a, a)) || 1; return [a[0] / n, a[1] / n, a[2] / n]; }

  // ---- shaders -------------------------------------------------------------------------------
  var VERTEX = [
    "attribute vec3 aPosition; attribute vec3 aNormal;",
    "uniform mat4 uModel, uViewProjection; uniform mat3 uNormal;",
    "varying vec3 vNormal, vPosition;",
    "void main() {",
    "  vec4 p = uModel * vec4(aPosition, 1.0);",
    "  vPosition = p.xyz; vNormal = uNormal * aNormal;",
    "  gl_Position = uViewProjection * p;",
    "}"].join("\n");
  var FRAGMENT = [
    "precision mediump float;",
    "uniform vec4 uColor; uniform vec3 uEye; uniform bool uLit;",
    "varying vec3 vNormal, vPosition;",
    "void main() {",
    "  if (!uLit) { gl_FragColor = uColor; return; }",
    "  vec3 n = normalize(vNormal), v = normalize(uEye - vPosition);",
    "  if (dot(n, v) < 0.0) n = -n;",
    "  vec3 key = normalize(vec3(0.35, -0.55, 0.75));",
    "  float light = 0.28 + 0.12 * (0.5 + 0.5 * n.z) + 0.45 * max(dot(n, key), 0.0)",
    "    + 0.25 * max(dot(n, v), 0.0);",
    "  float shine = 0.12 * pow(max(dot(n, normalize(key + v)), 0.0), 32.0);",
    "  gl_FragColor = vec4(uColor.rgb * light + shine, uColor.a);",
    "}"].join("\n");
  function shader(kind, source) {
    var s = gl.createShader(kind);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  }
  var program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  gl.useProgram(program);
  var aPosition = gl.getAttribLocation(program, "aPosition");
  var aNormal = gl.getAttribLocation(program, "aNormal");
  var u = {};
  ["uModel", "uViewProjection", "uNormal", "uColor", "uEye", "uLit"].forEach(function (name) {
    u[name] = gl.getUniformLocation(program, name);
  });

  // ---- geometry: triangle lists (positions, normals) in GPU buffers ---------------------------
  function upload(positions, normals, mode) {
    function buffer(data) {
      var b = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      return b;
    }
    return { positions: buffer(positions), normals: buffer(normals), count: positions.length / 3,
      mode: mode === undefined ? gl.TRIANGLES : mode };
  }
  function flatShaded(vertices, triangles) { // each triangle with its own normal
    var n = triangles.length / 3;
    var positions = new Float32Array(9 * n), normals = new Float32Array(9 * n);
    for (var t = 0; t < n; t++) {
      var a = 3 * triangles[3 * t], b = 3 * triangles[3 * t + 1], c = 3 * triangles[3 * t + 2];
      var ux = vertices[b] - vertices[a], uy = vertices[b + 1] - vertices[a + 1];
      var uz = vertices[b + 2] - vertices[a + 2];
      var vx = vertices[c] - vertices[a], vy = vertices[c + 1] - vertices[a + 1];
      var vz = vertices[c + 2] - vertices[a + 2];
      var nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      var len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
      [a, b, c].forEach(function (v, k) {
        var o = 9 * t + 3 * k;
        positions[o] = vertices[v]; positions[o + 1] = vertices[v + 1]; positions[o + 2] = vertices[v + 2];
        normals[o] = nx / len; normals[o + 1] = ny / len; normals[o + 2] = nz / len;
      });
    }
    return upload(positions, normals);
  }
  function smooth(points, normalOf) { // a list of [x, y, z] triangle corners
    var positions = new Float32Array(3 * points.length), normals = new Float32Array(3 * points.length);
    points.forEach(function (p, i) {
      var n = normalOf(p);
      positions.set(p, 3 * i);
      normals.set(n, 3 * i);
    });
    return upload(positions, normals);
  }
  function grid(rows, columns, corner) { // quads of a parametric surface, as triangles
    var points = [];
    for (var i = 0; i < rows; i++) {
      for (var j = 0; j < columns; j++) {
        var a = corner(i, j), b = corner(i + 1, j), c = corner(i + 1, j + 1), d = corner(i, j + 1);
        points.push(a, b, c, a, c, d);
      }
    }
    return points;
  }
  var unitSphere = smooth(grid(16, 32, function (i, j) {
    var theta = Math.PI * i / 16, phi = 2 * Math.PI * j / 32;
    return [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  }), function (p) { return p; });
  var unitCylinder = (function () { // radius 1, length 1 along z, centered
    var side = grid(1, 32, function (i, j) {
      var phi = 2 * Math.PI * j / 32;
      return [Math.cos(phi), Math.sin(phi), 0.5 - i];
    });
    var caps = [];
    for (var j = 0; j < 32; j++) {
      var a = 2 * Math.PI * j / 32, b = 2 * Math.PI * (j + 1) / 32;
      caps.push([0, 0, 0.5], [Math.cos(a), Math.sin(a), 0.5], [Math.cos(b), Math.sin(b), 0.5]);
      caps.push([0, 0, -0.5], [Math.cos(b), Math.sin(b), -0.5], [Math.cos(a), Math.sin(a), -0.5]);
    }
    return smooth(side.concat(caps), function (p) {
      return caps.indexOf(p) >= 0 ? [0, 0, Math.sign(p[2])] : [p[0], p[1], 0];
    });
  })();
  var unitCube = (function () {
    var points = [], normals = [];
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]].forEach(function (axes) {
      [-1, 1].forEach(function (sign) {
        var quad = [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]];
        quad.forEach(function (uv) {
          var p = [0, 0, 0];
          p[axes[0]] = 0.5 * sign; p[axes[1]] = 0.5 * uv[0]; p[axes[2]] = 0.5 * uv[1];
          var n = [0, 0, 0];
          n[axes[0]] = sign;
          points.push(p); normals.push(n);
        });
      });
    });
    return upload(new Float32Array([].concat.apply([], points)),
      new Float32Array([].concat.apply([], normals)));
  })();
  var unitCone = (function () { // base radius 1 at z = 0, apex at z = 1
    var points = [], normals = [];
    for (var j = 0; j < 24; j++) {
      var a = 2 * Math.PI * j / 24, b = 2 * Math.PI * (j + 1) / 24, m = (a + b) / 2;
      var s = Math.SQRT1_2;
      points.push([Math.cos(a), Math.sin(a), 0], [Math.cos(b), Math.sin(b), 0], [0, 0, 1]);
      normals.push([s * Math.cos(a), s * Math.sin(a), s], [s * Math.cos(b), s * Math.sin(b), s],
        [s * Math.cos(m), s * Math.sin(m), s]);
      points.push([0, 0, 0], [Math.cos(b), Math.sin(b), 0], [Math.cos(a), Math.sin(a), 0]);
      normals.push([0, 0, -1], [0, 0, -1], [0, 0, -1]);
    }
    return upload(new Float32Array([].concat.apply([], points)),
      new Float32Array([].concat.apply([], normals)));
  })();
  var meshes = scene.meshes.map(function (mesh) {
    var vertices = new Float32Array(decode(mesh.vertices));
    var buffer = decode(mesh.triangles);
    var triangles = mesh.index_bytes === 2 ? new Uint16Array(buffer) : new Uint32Array(buffer);
    var drawn = flatShaded(vertices, triangles);
    drawn.parts = mesh.parts;
    return drawn;
  });

  // ---- the objects: draws of a geometry in its frame ------------------------------------------
  var span = Math.max.apply(null, sub(scene.bounds[1], scene.bounds[0]).concat([0.1]));
  var opaque = [], transparent = [];
  scene.objects.forEach(function (object) {
    var X_FG = fromRows(object.pose);
    function add(geometry, local, color, first, count) {
      var draw = { frame: object.frame, geometry: geometry, local: multiply(X_FG, local),
        color: color, first: first || 0, count: count === undefined ? geometry.count : count };
      (color[3] < 1 ? transparent : opaque).push(draw);
    }
    var c = object.color;
    if (object.type === "box") {
      add(unitCube, scaling(object.size[0], object.size[1], object.size[2]), c);
    } else if (object.type === "sphere") {
      add(unitSphere, scaling(object.radius, object.radius, object.radius), c);
    } else if (object.type === "ellipsoid") {
      add(unitSphere, scaling(object.radii[0], object.radii[1], object.radii[2]), c);
    } else if (object.type === "cylinder" || object.type === "capsule") {
      var r = object.radius, L = object.length;
      add(unitCylinder, scaling(r, r, L), c);
      if (object.type === "capsule") {
        [-L / 2, L / 2].forEach(function (z) {
          add(unitSphere, multiply(translation(0, 0, z), scaling(r, r, r)), c);
        });
      }
    } else if (object.type === "halfspace") {
      add(unitCube, multiply(translation(0, 0, -0.0005 * span), scaling(20 * span, 20 * span, 0.001 * span)), c);
    } else if (object.type === "mesh") {
      var mesh = meshes[object.mesh], s = object.scale;
      mesh.parts.forEach(function (part) {
        var color = object.mesh_colors && part[2] ? part[2] : c;
        add(mesh, scaling(s[0], s[1], s[2]), color, 3 * part[0], 3 * part[1]);
      });
    }
  });

  // ---- the floor: a grid below the motion, and World's axes -----------------------------------
  var floorLines = (function () {
    var lo = scene.bounds[0], hi = scene.bounds[1];
    var extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], 0.5 * span) * 1.6;
    var step = Math.pow(10, Math.floor(Math.log10(extent / 8)));
    if (extent / step > 40) step *= 5; else if (extent / step > 16) step *= 2;
    var cx = Math.round((lo[0] + hi[0]) / 2 / step) * step, cy = Math.round((lo[1] + hi[1]) / 2 / step) * step;
    var n = Math.ceil(extent / 2 / step), z = scene.floor, points = [];
    for (var i = -n; i <= n; i++) {
      points.push([cx + i * step, cy - n * step, z], [cx + i * step, cy + n * step, z]);
      points.push([cx - n * step, cy + i * step, z], [cx + n * step, cy + i * step, z]);
    }
    var flat = new Float32Array([].concat.apply([], points));
    return { grid: upload(flat, new Float32Array(flat.length), gl.LINES), step: step };
  })();
  var axes = [0, 1, 2].map(function (i) { // World's x, y, z: red, green, blue
    var flat = new Float32Array(6);
    flat[3 + i] = floorLines.step;
    return upload(flat, new Float32Array(6), gl.LINES);
  });

  // ---- the camera: turns about a target; first framing the bounding box of the motion ---------
  var FOV = 40 * Math.PI / 180;
  var camera = {};
  function basis() {
    var ca = Math.cos(camera.azimuth), sa = Math.sin(camera.azimuth);
    var ce = Math.cos(camera.elevation), se = Math.sin(camera.elevation);
    var back = [ce * ca, ce * sa, se]; // from the target toward the camera
    var right = normalize(cross([0, 0, 1], back));
    return { back: back, right: right, up: cross(back, right) };
  }
  function aspect() { return canvas.width / Math.max(canvas.height, 1); }
  function frameTheMotion() {
    var lo = scene.bounds[0], hi = scene.bounds[1];
    camera.azimuth = -Math.PI / 2; // looking along +y: planar models (x-z) face the viewer
    camera.elevation = 12 * Math.PI / 180;
    camera.offset = [0, 0, 0];
    camera.target = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
    // The title and the controls bar cover about 104 px of the height: fit in the rest.
    var h = Math.max(canvas.clientHeight, 1), free = Math.max(h - 104, 0.5 * h) / h;
    var b = basis(), tanV = Math.tan(FOV / 2), tanH = tanV * aspect(), distance = 0;
    tanV *= free;
    for (var k = 0; k < 8; k++) {
      var corner = sub([k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]],
        camera.target);
      var depth = dot(corner, b.back);
      distance = Math.max(distance, Math.abs(dot(corner, b.right)) / tanH + depth,
        Math.abs(dot(corner, b.up)) / tanV + depth);
    }
    camera.distance = Math.max(1.2 * distance, 1e-3);
  }
  function aim(t) { // the target at time t: the box's center (followed or not), panned
    var lo = scene.bounds[0], hi = scene.bounds[1], c = [0, 0, 0];
    var at = sample(t);
    for (var i = 0; i < 3; i++) {
      c[i] = follow ? (1 - at.s) * follow[3 * at.lo + i] + at.s * follow[3 * at.hi + i]
        : (lo[i] + hi[i]) / 2;
      camera.target[i] = c[i] + camera.offset[i];
    }
  }
  function eye() {
    var b = basis();
    return [camera.target[0] + camera.distance * b.back[0],
      camera.target[1] + camera.distance * b.back[1], camera.target[2] + camera.distance * b.back[2]];
  }
  function viewProjection() {
    var b = basis(), e = eye();
    var view = new Float32Array([b.right[0], b.up[0], b.back[0], 0, b.right[1], b.up[1], b.back[1], 0,
      b.right[2], b.up[2], b.back[2], 0, -dot(b.right, e), -dot(b.up, e), -dot(b.back, e), 1]);
    var near = camera.distance / 200, far = camera.distance * 20 + 40 * span;
    return multiply(perspective(FOV, aspect(), near, far), view);
  }

  // ---- the recorded poses at a time: interpolated between the two samples around it ----------
  function sample(t) { // the samples lo, hi around t and the fraction s of the way between
    var lo = 0, hi = times.length - 1;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (times[mid] <= t) lo = mid; else hi = mid; }
    var s = hi > lo ? Math.min(Math.max((t - times[lo]) / (times[hi] - times[lo]), 0), 1) : 0;
    return { lo: lo, hi: hi, s: s };
  }
  function framePoses(t) {
    var at = sample(t), lo = at.lo, hi = at.hi, s = at.s;
    var result = [];
    for (var f = 0; f < F; f++) {
      var a = 7 * (lo * F + f), b = 7 * (hi * F + f), p = [];
      var sign = poses[a + 3] * poses[b + 3] + poses[a + 4] * poses[b + 4] +
        poses[a + 5] * poses[b + 5] + poses[a + 6] * poses[b + 6] < 0 ? -1 : 1;
      for (var i = 0; i < 7; i++) {
        p.push((1 - s) * poses[a + i] + s * (i > 2 ? sign : 1) * poses[b + i]);
      }
      var n = Math.hypot(p[3], p[4], p[5], p[6]) || 1;
      result.push(fromPose(p[0], p[1], p[2], p[3] / n, p[4] / n, p[5] / n, p[6] / n));
    }
    return result;
  }

  // ---- contact forces: per sample, double-sided arrows (point, half vector f/N-per-m) ---------
  var contacts = scene.contacts ? { offsets: new Int32Array(decode(scene.contacts.offsets)),
    arrows: new Float32Array(decode(scene.contacts.arrows)) } : null;
  var ARROW_COLOR = [0, 1, 0, 1], arrowRadius = 0.004 * span;
  function along(d, radius, length, p) { // a model matrix: z along d (unit), scaled, at p
    var x = normalize(Math.abs(d[2]) < 0.9 ? cross([0, 0, 1], d) : cross([1, 0, 0], d));
    var y = cross(d, x), m = identity();
    for (var i = 0; i < 3; i++) {
      m[i] = radius * x[i]; m[4 + i] = radius * y[i]; m[8 + i] = length * d[i]; m[12 + i] = p[i];
    }
    return m;
  }
  function contactDraws(t) {
    if (!contacts) return [];
    var at = sample(t), k = at.s < 0.5 ? at.lo : at.hi, draws = [];
    for (var a = contacts.offsets[k]; a < contacts.offsets[k + 1]; a++) {
      var c = contacts.arrows.subarray(6 * a, 6 * a + 6), h = [c[3], c[4], c[5]];
      var half = Math.sqrt(dot(h, h));
      if (!(half > 0)) continue;
      var d = [h[0] / half, h[1] / half, h[2] / half], r = arrowRadius;
      var p = [c[0], c[1], c[2]], head = [p[0] + h[0], p[1] + h[1], p[2] + h[2]];
      var tail = [p[0] - h[0], p[1] - h[1], p[2] - h[2]], back = [-d[0], -d[1], -d[2]];
      draws.push({ frame: -1, geometry: unitCylinder, local: along(d, r, 2 * half, p) });
      draws.push({ frame: -1, geometry: unitCone, local: along(d, 2 * r, 4 * r, head) });
      draws.push({ frame: -1, geometry: unitCone, local: along(back, 2 * r, 4 * r, tail) });
    }
    draws.forEach(function (draw) {
      draw.color = ARROW_COLOR; draw.first = 0; draw.count = draw.geometry.count;
    });
    return draws;
  }

  // ---- drawing -------------------------------------------------------------------------------
  var showFloor = true;
  function bind(geometry) {
    gl.bindBuffer(gl.ARRAY_BUFFER, geometry.positions);
    gl.vertexAttribPointer(aPosition, 3, gl.FLOAT, false, 0, 0);
    gl.enableVertexAttribArray(aPosition);
    gl.bindBuffer(gl.ARRAY_BUFFER, geometry.normals);
    gl.vertexAttribPointer(aNormal, 3, gl.FLOAT, false, 0, 0);
    gl.enableVertexAttribArray(aNormal);
  }
  function drawList(list, X_WF) {
    list.forEach(function (d) {
      var model = d.frame < 0 ? d.local : multiply(X_WF[d.frame], d.local);
      gl.uniformMatrix4fv(u.uModel, false, model);
      gl.uniformMatrix3fv(u.uNormal, false, normalMatrix(model));
      gl.uniform4fv(u.uColor, d.color);
      bind(d.geometry);
      gl.drawArrays(d.geometry.mode, d.first, d.count);
    });
  }
  function drawLines(geometry, color) {
    gl.uniform1i(u.uLit, 0);
    gl.uniformMatrix4fv(u.uModel, false, identity());
    gl.uniform4fv(u.uColor, color);
    bind(geometry);
    gl.drawArrays(gl.LINES, 0, geometry.count);
  }
  function resize() {
    var dpr = window.devicePixelRatio || 1;
    var w = Math.round(canvas.clientWidth * dpr), h = Math.round(canvas.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }
  function draw(t) {
    resize();
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(0.933, 0.941, 0.957, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    aim(t);
    gl.uniformMatrix4fv(u.uViewProjection, false, viewProjection());
    gl.uniform3fv(u.uEye, eye());
    var X_WF = framePoses(t);
    if (showFloor) {
      gl.depthMask(false);
      drawLines(floorLines.grid, [0.35, 0.38, 0.45, 0.35]);
      gl.depthMask(true);
      axes.forEach(function (axis, i) {
        drawLines(axis, [i === 0 ? 0.85 : 0.1, i === 1 ? 0.65 : 0.1, i === 2 ? 0.85 : 0.1, 1]);
      });
    }
    gl.uniform1i(u.uLit, 1);
    drawList(opaque, X_WF);
    drawList(contactDraws(t), X_WF);
    gl.depthMask(false);
    drawList(transparent, X_WF);
    gl.depthMask(true);
  }

  // ---- the player ----------------------------------------------------------------------------
  var timeLabel = document.getElementById("time"), scrub = document.getElementById("scrub");
  var button = document.getElementById("play");
  var player = { t: T0, playing: T1 > T0, last: null, pending: false };
  function show() {
    timeLabel.textContent = "t = " + player.t.toFixed(2) + " s / " + T1.toFixed(2) + " s";
    scrub.value = T1 > T0 ? Math.round(1000 * (player.t - T0) / (T1 - T0)) : 0;
    button.innerHTML = player.playing ? "&#10074;&#10074;" : "&#9654;";
    draw(player.t);
  }
  function frame(now) {
    player.pending = false;
    if (player.playing) {
      if (player.last !== null) {
        player.t += (now - player.last) / 1000;
        if (player.t > T1) player.t = T0 + (player.t - T1) % Math.max(T1 - T0, 1e-9);
      }
      player.last = now;
    }
    show();
    if (player.playing) request();
  }
  function request() {
    if (!player.pending) { player.pending = true; requestAnimationFrame(frame); }
  }
  function setPlaying(playing) {
    player.playing = playing && T1 > T0;
    player.last = null;
    request();
  }
  button.addEventListener("click", function () { setPlaying(!player.playing); });
  scrub.addEventListener("input", function () {
    player.t = T0 + (T1 - T0) * scrub.value / 1000;
    setPlaying(false);
  });
  window.addEventListener("keydown", function (e) {
    if (e.key === " ") { setPlaying(!player.playing); e.preventDefault(); }
  });
  window.addEventListener("resize", request);

  // ---- the mouse: drag turns, shift-drag or right-drag pans, the wheel zooms -------------------
  var drag = null;
  canvas.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  canvas.addEventListener("mousedown", function (e) {
    drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 2 };
  });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    if (drag.pan) {
      var b = basis(), k = 2 * camera.distance * Math.tan(FOV / 2) / canvas.clientHeight;
      for (var i = 0; i < 3; i++) camera.offset[i] += k * (-dx * b.right[i] + dy * b.up[i]);
    } else {
      camera.azimuth -= dx * 0.008;
      camera.elevation = Math.max(-1.55, Math.min(1.55, camera.elevation + dy * 0.008));
    }
    request();
  });
  canvas.addEventListener("wheel", function (e) {
    camera.distance *= Math.exp(0.001 * e.deltaY);
    e.preventDefault();
    request();
  }, { passive: false });
  canvas.addEventListener("dblclick", function () { frameTheMotion(); request(); });

  // ---- start: "#t=SECONDS" pauses at that time, "floor=0" hides the floor --------------------
  function applyHash() {
    var options = {};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (item) {
      var kv = item.split("=");
      if (kv[0]) options[kv[0]] = kv[1];
    });
    showFloor = options.floor !== "0";
    if (options.t !== undefined && isFinite(parseFloat(options.t))) {
      player.t = Math.min(Math.max(parseFloat(options.t), T0), T1);
      player.playing = false;
    }
  }
  window.addEventListener("hashchange", function () { applyHash(); request(); });
  applyHash();
  resize();
  frameTheMotion();
  show();
  document.body.setAttribute("data-load-ms", String(Math.round(performance.now())));
  if (player.playing) request();
})();
