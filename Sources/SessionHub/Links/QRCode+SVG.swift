extension QRCode {
    /// Modules of light margin QR readers need around the symbol (ISO/IEC 18004).
    package static let quietZone = 4

    /// The symbol as an SVG image: a white square with the quiet zone, and one black path of the dark modules, one
    /// unit per module (`viewBox`), drawn with `shape-rendering="crispEdges"` so no edge is blurred; `pixelsPerModule`
    /// sets the intrinsic `width` and `height` (a page scales it with CSS).
    package func svg(pixelsPerModule: Int = 8) -> String {
        let side = size + 2 * Self.quietZone
        let pixels = side * pixelsPerModule
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(pixels)" height="\#(pixels)" "#
            + #"viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges">"#
            + ##"<rect width="\##(side)" height="\##(side)" fill="#fff"/><path fill="#000" d=""##
        svg.reserveCapacity(svg.utf8.count + size * size * 3)
        svg += pathData()
        svg += #""/></svg>"#
        return svg
    }

    /// The dark modules as path data, each horizontal run of them one rectangle: `M x y h n v 1 h -n z`.
    func pathData() -> String {
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, isDark(x: x, y: y) { x += 1 }
                let run = x - start
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(run)v1h-\(run)z"
            }
        }
        return path
    }
}
