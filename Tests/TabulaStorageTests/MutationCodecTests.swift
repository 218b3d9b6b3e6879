import Foundation
import Testing
import TabulaModel
@testable import TabulaStorage

@Suite("The change table's mutations and SQL")
struct MutationCodecTests {
    let codec = MutationCodec()

    @Test("every list's whole state survives its JSON form")
    func seedRoundTrips() throws {
        let mutations = SeedData.model(now: 1_700_000_000.25).snapshot.mutations
        #expect(try codec.decode(codec.encode(mutations)) == mutations)
    }

    @Test("deletes, counters, whole tables, quotes and whole-number reals come back as written")
    func oddValuesRoundTrip() throws {
        let mutations = [
            Mutation(
                "items",
                .put([.int(3), .text("O'Brien \"x\" \\ é 😀"), .int(7), .text("SN"), .double(3), .int(0), .double(-1.5)])
            ),
            Mutation("items", .delete(.int(4))),
            Mutation(
                "bands", .replaceAll([[.int(0), .text("cheap"), .int(0)], [.int(1), .text("dear"), .int(100)]])),
            Mutation("next_item_id", .counter(9)),
        ]
        #expect(try codec.decode(codec.encode(mutations)) == mutations)
    }

    @Test("the JSON text is exactly the documented form, escapes and reals included")
    func encodedTextIsTheDocumentedForm() {
        let mutations = [
            Mutation(
                "items",
                .put([.int(3), .text("O'Brien \"x\" \\ é\n"), .int(-7), .double(3), .double(-1.5), .double(.infinity)])),
            Mutation("items", .delete(.text("k"))),
            Mutation("bands", .replaceAll([[.int(0), .text("cheap")], []])),
            Mutation("bands", .replaceAll([])),
            Mutation("next_item_id", .counter(9)),
        ]
        #expect(
            codec.encode(mutations)
                == #"[["items","put",[3,"O'Brien \"x\" \\ é\n",-7,3.0,-1.5,null]],["items","delete","k"],["bands","all",[[0,"cheap"],[]]],["bands","all",[]],["next_item_id","counter",9]]"#
        )
        #expect(codec.encode([]) == "[]")
    }

    @Test("a damaged or unknown change is refused with a message, never half read")
    func damagedChangesAreRefused() {
        #expect(throws: StorageError.self) { try codec.decode("{") }
        #expect(throws: StorageError.self) { try codec.decode(#"[["nope","put",[1]]]"#) }
        #expect(throws: StorageError.self) { try codec.decode(#"[["items","put",[1]]]"#) }
        #expect(throws: StorageError.self) { try codec.decode(#"[["items","grow",1]]"#) }
    }

    @Test("SQL quotes every text literal and upserts by the table's key")
    func sqlQuotesText() throws {
        let sql = try PostgresTables().sql([
            Mutation("orders", .put([.int(1), .text("x'); DROP TABLE orders; --"), .text("T"), .double(2.5)]))
        ])
        #expect(sql.contains("'x''); DROP TABLE orders; --'"))
        #expect(sql.contains("ON CONFLICT(id) DO UPDATE SET"))
    }

    @Test("a batch's puts to one table become one upsert keeping each key's last row, and a counter is raised once")
    func batchesCoalesce() throws {
        let row = { (id: Int64, title: String) in
            Mutation("orders", .put([.int(id), .text("/menu/x"), .text(title), .double(1)]))
        }
        let sql = try PostgresTables().sql([
            row(1, "a"), Mutation("next_order_id", .counter(2)), row(2, "b"), row(1, "c"),
            Mutation("next_order_id", .counter(3)),
        ])
        #expect(sql.components(separatedBy: "INSERT INTO orders").count == 2)
        #expect(!sql.contains("'a'") && sql.contains("'c'") && sql.contains("'b'"))
        #expect(
            sql.components(separatedBy: "INSERT INTO tabula_meta").count == 2 && sql.contains("'next_order_id', 3)"))
        let withDelete = try PostgresTables().sql([row(1, "a"), Mutation("orders", .delete(.int(1))), row(1, "d")])
        let put = try #require(withDelete.range(of: "'a'")),
            delete = try #require(withDelete.range(of: "DELETE FROM orders")),
            again = try #require(withDelete.range(of: "'d'"))
        #expect(put.lowerBound < delete.lowerBound && delete.lowerBound < again.lowerBound)
    }

    @Test("a conninfo's password never reaches the log")
    func redactsPasswords() {
        #expect(PostgresStore.redacted("host=a password=s3cret dbname=t") == "host=a password=*** dbname=t")
        #expect(PostgresStore.redacted("postgresql://u:s3cret@h/db") == "postgresql://u:***@h/db")
    }
}
