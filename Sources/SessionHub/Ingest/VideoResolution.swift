/// Width and height of a video stream in pixels, as carried by its bitstream (`stream.resolution`).
package struct VideoResolution: Hashable, Sendable, CustomStringConvertible {
    /// Pixels per row.
    package var width: Int
    /// Rows.
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `"1280x720"`.
    package var description: String { "\(width)x\(height)" }
}
