import TestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `pongd serve`'s quota flags reach the server (docs/SECURITY.md, "Quotas"): the built binary with small quotas
/// answers 429/413 where the defaults would not, and refuses a value out of range.
@Suite("pongd serve quota flags", .serialized)
struct QuotaFlagsTests {
    /// A 64×48 JPEG of 1,700 bytes (Tests/SessionHubTests/Fixtures/photo_64x48.jpg).
    private static let jpeg = "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgKCgsKCw0NDQ0NDRAPEBAQEBAQEBAQEBASEhIVFRUSEhIQEBISFBQVFRcXFxUVFRUXFxkZGR4eHBwjIyQrKzP/xAC8AAACAgMBAQAAAAAAAAAAAAAABwYIBAUDAgEBAAIDAQEBAAAAAAAAAAAAAAAGBwQIBQIBEAACAQIEAgUGBhMBAAAAAAABAgMAEQUEEjEhBlEHQVITYrFDIhQjFRaBkuPTwuGjs8S0w4QyJEQ1gmFFcWN18EIRAAEDAgMDBQYSCwEAAAAAAAEAAgMEERIhBRMGMUFRcTIUIsHDFYMk45KEo6TUxNPCYYEXUkRiYwdD4dEW0kWxZILw5JOR/8AAEQgAMABAAwESAAISAAMSAP/aAAwDAQACEQMRAD8Ar/W4wbC5caxLK5CI6WnkCluB0IAWkkszIG0Rhm06gWtYcaEIQmthOEnOESygiEH+xkI7B5Peb5Bx2YEUUcEaxxqFVRYAf9v0k8SaoabppqjtJLiIHoMhHIPi5z8g+J2jjZExrGNDWtFgB/n/AKeVNe+2+0egxuoqJzZNQe3M5ObSNcMnvBuDKRnHGcrd28YbB2YKysqdQqZaqqldNNK7E97uJPDgLAACwa0ANa0AAABLxmLksxuTua80y09PDSQshhYI44xZrRwA/mSTmScyczmrC2rS0tPQ08dPTxtiiibhYxvAD5cySc3OJJcSSTdWks6Ka0LP6FcWisAITUhLIgEWPGvtN7Hujc17HFjmkOa5pIc0g3BBGYIPAheFAUcj4ntkjc5j2ODmuaS1zXA3DmkZgg5gjMLwsHCcZM5EGZI8Qn1HsAHv/wCTawDd3sO2+8FVipDKSCCCCDYgjYg9NS3puq7Y7GcjGT3D8gHfZNrAHm5+HHinAlpBBIINwRkQRyhSvvtuCNNjdqOkxuNMxt6imxOkdAGjOZheXPdFyyAkujPddS+HR8kcc0b45GNkY9pY9jwHNe1wsWuabggjIg5EK2NQ/lHHPh/BcvmXN509xmeHpowLtwRF94pWSyDSuvTfhTUhQIhIzqsjjfmCZmRWMeRmdCQCUYywpqUn9E6WZbjjpYjY106qv39mf9fL+MZehCEJp0U1oWf0Ja0U0oW60JZ0U1oWf0K4tFYAQmpCWdFNiFn9CWtFNKFupCm/VJJIY8XjLsUVso6pc6VZxOGYLsCwRQxHEhRfavHVH/WfzL8JprQoAQo1yrhEmHYplcQjzCsYWa8bQmzK6NG41CUWOljpaxAaxII4VE8rzVn8pbRFlTbvLIfNKKXJ9a2P5GLylvgFWJdHp5us+UdBb+4U3VO73Z7+c4vJW8IVUn1+rn6zIB0Nf35CrJey+7D69+y326heR5pklYQ5pIY1PBXUMAp8vU7cD09nbw2q/t13WHxf7I9AXLo9E02Sa1RLUsDuDmvjAB+1eI5Hn5OVRDVbm9mv57i8hbwxUzb1aBXMojUaUBUSR3dLTyAukkZzwYCy725nZkEvHVOIAO4y4T4Zt41/4LfZ1wkxPMOfWSMEdlmHnanaLf8A2hA8XWv/AFN/c66cG5GkYWvjqKx7XAOa4SQua4EXBBEFiCOBC4NT+InZzbxbi9VW9zldR+4mjVrWyCprHNeA5ro5YC1zXC4c07AggjMEcVoV5N1ftv3D6atcvN2IL6LK/Ml+uprpN8u1W8ywX+/v4ELo0+6On01sEtUbfSfF3oQoYdvHh+reu+hq4d3qQ/mT+mZ72nDneY/Y7/q2u3+XT+TNZma5fymbvrecX7rIPPGaheD8N9t/E8PqW/ukLjRfiFq8PVgoD0xz+2AutTb09ot5ph8tfwQV+Ddmip+rJUnpdH3oglJ8ZfeFPZdu3xfo6zfi7k9ZfxMxc+UlvvdSL823c4vGnsT/AGVxvnD1i1thQf8AOf2wlql3c7TbznD5K/hAqdPvDV0/VjgPS1/ekC0UUXiC97fJepRheDyOhfMa4l2VbWkP8zqBsOgWud9t2CXc/Zgntt7fcW8MunS6pqNU1zqmKCIHJrQyRr+k4pDYcwtc8enV9NqHaBfZ4f7r/BCh3eLfik0WRlNoroa6QWdNO921pmgjKOMwuZtH8C5wdhZ1c3E4evLONR8r4ccmuWbMl5nneQzCMFmCrZUELaQFRd2Ylrm9jYMFuR8Lb02d+fD9RS1Vs7LfPHb5P1r5UPNTfHYX+j+m6dW7qYvrnrPoqoDeiuH5dN6WT31f/9k="

    /// One request on its own connection: the status and the body as JSON (status 0 when nothing answers).
    private func call(_ port: Int, _ method: String, _ path: String, token: String? = nil, body: String = "{}")
        -> (status: Int, json: [String: Any])
    {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return (0, [:]) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        let request = Array((head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            answer += buffer[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        let status = Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
        let json = text.range(of: "\r\n\r\n").flatMap {
            try? JSONSerialization.jsonObject(with: Data(text[$0.upperBound...].utf8)) as? [String: Any]
        }
        return (status, json ?? [:])
    }

    private func errorCode(_ answer: (status: Int, json: [String: Any])) -> String? {
        (answer.json["error"] as? [String: Any])?["code"] as? String
    }

    @Test("--guest-burst, --max-sessions-per-user and --photo-storage-kib-per-user set the quotas")
    func flagsReachTheServer() async throws {
        let port = freeLoopbackPort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pongd-quota-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = try ToolRun.pongd()
        process.arguments = ["serve", "--port", "\(port)", "--metrics-port", "0", "--data-dir", folder.path,
                             "--log-level", "error", "--guest-burst", "2", "--guests-per-hour", "1",
                             "--max-sessions-per-user", "1", "--photo-storage-kib-per-user", "1"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }
        var first = (status: 0, json: [String: Any]())
        for _ in 0..<100 where first.status == 0 {
            first = call(port, "POST", "/auth/guest")
            if first.status == 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(first.status == 201)
        let token = try #require(first.json["token"] as? String)
        #expect(call(port, "POST", "/auth/guest").status == 201)
        let third = call(port, "POST", "/auth/guest")
        #expect(third.status == 429 && errorCode(third) == "too_many_guests")

        let create = #"{"mode":"rally","pointsToWin":11}"#
        #expect(call(port, "POST", "/sessions", token: token, body: create).status == 201)
        let second = call(port, "POST", "/sessions", token: token, body: create)
        #expect(second.status == 429 && errorCode(second) == "too_many_sessions")

        let photo = call(port, "POST", "/users/profile", token: token,
                         body: #"{"displayName":"Ana","photo":"\#(Self.jpeg)"}"#)
        #expect(photo.status == 413 && errorCode(photo) == "photo_quota_exceeded")
    }

    @Test("a quota out of range is refused at start")
    func outOfRange() throws {
        let run = try ToolRun.run(try ToolRun.pongd().path, ["serve", "--max-sessions-per-user", "0"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--max-sessions-per-user"))
    }
}
