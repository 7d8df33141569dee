//! The benchmark corpus's words: aligned Vietnamese/English sentences, headings, tags, topics and
//! identifiers, from which every article is assembled.

pub const TOPICS: &[(&str, &str)] = &[
    ("bắt tay TCP", "the TCP handshake"),
    ("giá của TLS", "the price of TLS"),
    ("JSON so với MessagePack", "JSON against MessagePack"),
    ("hàm cửa sổ trong SQL", "SQL window functions"),
    ("bộ nhớ đệm DNS", "the DNS cache"),
    ("nén dữ liệu", "data compression"),
    ("kết nối giữ sống", "keep-alive connections"),
    ("HTTP/2 và HTTP/1.1", "HTTP/2 and HTTP/1.1"),
    ("mã hóa varint", "varint encoding"),
    ("sao chép không tốn bộ nhớ", "zero-copy parsing"),
    ("độ trễ của ổ đĩa", "disk latency"),
    ("chỉ mục cơ sở dữ liệu", "database indexes"),
];

pub const TAGS: &[(&str, &str)] = &[
    ("mạng", "networking"),
    ("hiệu năng", "performance"),
    ("tuần tự hóa", "serialization"),
    ("cơ sở dữ liệu", "databases"),
    ("bảo mật", "security"),
    ("độ trễ", "latency"),
    ("bộ nhớ", "memory"),
    ("đo đạc", "measurement"),
    ("rust", "rust"),
    ("go", "go"),
    ("sql", "sql"),
    ("giao thức", "protocols"),
    ("nén", "compression"),
    ("đĩa", "storage"),
    ("hệ điều hành", "operating systems"),
    ("đồng thời", "concurrency"),
    ("bộ đệm", "caching"),
    ("trình biên dịch", "compilers"),
    ("kiểm thử", "testing"),
    ("mã hóa", "encoding"),
    ("python", "python"),
    ("javascript", "javascript"),
    ("c", "c"),
    ("cấu hình", "configuration"),
    ("trình duyệt", "browsers"),
    ("máy chủ", "servers"),
    ("hàng đợi", "queues"),
    ("lập lịch", "scheduling"),
    ("tối ưu hóa", "optimisation"),
    ("thuật toán", "algorithms"),
    ("cấu trúc dữ liệu", "data structures"),
    ("nhật ký", "logging"),
    ("giám sát", "monitoring"),
    ("điện toán đám mây", "cloud computing"),
    ("tệp tin", "files"),
    ("chuỗi ký tự", "strings"),
    ("số thực", "floating point"),
    ("bộ cấp phát", "allocators"),
    ("ghi chép", "notes"),
    ("sai lầm", "mistakes"),
];

pub const HEADINGS: &[(&str, &str)] = &[
    ("Thí nghiệm", "The experiment"),
    ("Cách đo", "How we measured"),
    ("Kết quả", "Results"),
    ("Vì sao lại chậm hơn", "Why it is slower"),
    ("Những điều bất ngờ", "Surprises"),
    ("Đọc mã nguồn", "Reading the source"),
    ("Giới hạn của phép đo", "Limits of the measurement"),
    ("Kết luận", "Conclusion"),
    ("Bối cảnh", "Background"),
    ("Thử lại với dữ liệu lớn hơn", "Again with more data"),
];

pub const LINK_TEXTS: &[(&str, &str)] = &[
    ("phần trước của loạt bài", "the previous part of the series"),
    ("bài đo độ trễ", "the latency article"),
    ("cách chúng tôi đo", "how we measure"),
    ("kết quả trên máy khác", "results on another machine"),
    ("phân tích chi tiết", "the detailed analysis"),
];

pub const ITEMS: &[(&str, &str)] = &[
    (
        "mỗi phép đo được khởi động trước khi lấy mẫu",
        "every timing is warmed up before sampling",
    ),
    (
        "dữ liệu đầu vào sinh từ một hạt giống cố định",
        "inputs are generated from a fixed seed",
    ),
    (
        "máy có hai nhân, dùng chung với việc biên dịch",
        "the machine has two cores shared with compile jobs",
    ),
    (
        "kết quả là trung vị của hàng trăm mẫu",
        "results are the median of hundreds of samples",
    ),
    (
        "khoảng tin cậy hiện khi rê chuột lên con số",
        "the confidence interval shows on hover",
    ),
    (
        "không có con số nào được gõ tay",
        "no number is typed by hand",
    ),
    (
        "mã nguồn của thí nghiệm nằm ngay trong kho",
        "the experiment's source lives in the repository",
    ),
    (
        "đường truyền được giả lập bằng tc netem",
        "the link is emulated with tc netem",
    ),
    (
        "bộ nhớ được đếm bằng một bộ cấp phát riêng",
        "memory is counted by a custom allocator",
    ),
];

pub const FORMATS: [&str; 5] = ["JSON", "MessagePack", "CBOR", "Protobuf", "Bincode"];

pub const IDENTS: &[&str] = &[
    "order", "item", "price", "buffer", "socket", "latency", "sample", "record", "cursor",
    "payload", "header", "window", "packet", "stream", "encoder", "decoder", "cache", "index",
    "tenant", "invoice", "session", "retry", "deadline", "shard", "offset", "checksum",
];

/// Aligned sentence pairs: the same paragraph in both languages.
pub const SENTENCES: &[(&str, &str)] = &[
    (
        "Câu hỏi nghe thì đơn giản, nhưng câu trả lời phụ thuộc vào rất nhiều thứ mà ta thường bỏ qua.",
        "The question sounds simple, but the answer depends on many things we usually ignore.",
    ),
    (
        "Chúng tôi không tin vào những con số chép lại từ bài viết khác, nên đã tự đo trên máy của mình.",
        "We do not trust numbers copied from other articles, so we measured on our own machine.",
    ),
    (
        "Mỗi lần chạy, chương trình đọc **một triệu bản ghi** rồi ghi lại thời gian của từng bước.",
        "On every run the program reads **one million records** and logs the time of every step.",
    ),
    (
        "Kết quả cho thấy phần lớn thời gian không nằm ở chỗ ta đoán, mà ở việc cấp phát bộ nhớ.",
        "The results show that most of the time is not where we guessed, but in memory allocation.",
    ),
    (
        "Hãy để ý rằng hàm `parse` được gọi nhiều hơn ta tưởng, vì mỗi trường lại được đọc hai lần.",
        "Notice that `parse` is called more often than we thought, because every field is read twice.",
    ),
    (
        "Trên mạng nội bộ, độ trễ khứ hồi chỉ khoảng vài chục micro giây, nên chi phí bắt tay gần như biến mất.",
        "On a local network the round trip is a few tens of microseconds, so the handshake cost almost vanishes.",
    ),
    (
        "Nhưng khi thêm năm mươi mili giây độ trễ giả lập, bức tranh thay đổi hoàn toàn.",
        "But once we add fifty milliseconds of emulated latency, the picture changes completely.",
    ),
    (
        "Điều này khớp với lý thuyết: mỗi vòng khứ hồi tiết kiệm được là một khoảng chờ người dùng không phải chịu.",
        "This matches the theory: every round trip saved is a wait the user does not have to sit through.",
    ),
    (
        "Chúng tôi chạy lại thí nghiệm năm lần vào các thời điểm khác nhau trong ngày để loại trừ nhiễu.",
        "We ran the experiment five times at different times of day to rule out noise.",
    ),
    (
        "Độ lệch giữa các lần chạy nhỏ hơn hai phần trăm, đủ nhỏ để tin vào kết luận bên dưới.",
        "The spread between runs is under two percent, small enough to trust the conclusion below.",
    ),
    (
        "*Một chi tiết dễ bị bỏ sót*: trình biên dịch đã tự động vector hóa vòng lặp bên trong.",
        "*An easy detail to miss*: the compiler vectorised the inner loop on its own.",
    ),
    (
        "Nếu tắt tối ưu hóa đó, thời gian tăng gần gấp ba, và thứ hạng giữa các định dạng đảo ngược.",
        "With that optimisation off, the time almost triples and the ranking of the formats flips.",
    ),
    (
        "Đọc kỹ mã nguồn của thư viện, ta thấy nó sao chép chuỗi mỗi khi gặp ký tự thoát.",
        "Reading the library's source closely, we see it copies the string whenever it meets an escape.",
    ),
    (
        "Với dữ liệu tiếng Việt có dấu, điều đó xảy ra thường xuyên hơn nhiều so với tiếng Anh.",
        "With accented Vietnamese text that happens far more often than with English.",
    ),
    (
        "Bảng dưới đây tóm tắt số byte và thời gian mã hóa của từng định dạng trên cùng một đơn hàng.",
        "The table below sums up the bytes and the encode time of each format on the same order.",
    ),
    (
        "Không có định dạng nào thắng ở mọi tiêu chí; lựa chọn phụ thuộc vào thứ bạn cần tối ưu.",
        "No format wins on every count; the choice depends on what you need to optimise.",
    ),
    (
        "Ở quy mô nhỏ, sự khác biệt chỉ là vài micro giây và không đáng để thay đổi kiến trúc.",
        "At small scale the difference is a few microseconds and not worth changing the architecture.",
    ),
    (
        "Ở quy mô lớn, cùng sự khác biệt ấy có thể là hàng chục máy chủ mỗi tháng.",
        "At large scale the same difference can be dozens of servers every month.",
    ),
    (
        "Chúng tôi cũng đo mức dùng bộ nhớ đỉnh, vì tốc độ chỉ là một nửa câu chuyện.",
        "We also measured peak memory, because speed is only half the story.",
    ),
    (
        "Bộ cấp phát mặc định của hệ thống xử lý tốt các khối nhỏ, nhưng phân mảnh khi kích thước thay đổi liên tục.",
        "The system's default allocator handles small blocks well but fragments when sizes keep changing.",
    ),
    (
        "Để kiểm chứng, hãy tự chạy lại thí nghiệm: lệnh đầy đủ nằm ở cuối bài.",
        "To check, rerun the experiment yourself: the full command is at the end of the article.",
    ),
    (
        "Mọi con số trong bài đều được chèn tự động từ kết quả đo, không con số nào được gõ tay.",
        "Every number in this article is injected from the measured results; none is typed by hand.",
    ),
    (
        "Cơ sở dữ liệu trả lời truy vấn cửa sổ nhanh hơn ta nghĩ, miễn là có chỉ mục đúng cột.",
        "The database answers the window query faster than we thought, as long as the right column is indexed.",
    ),
    (
        "Điều đáng ngạc nhiên nhất là phiên bản đơn giản nhất lại nhanh nhất trong đa số trường hợp.",
        "The most surprising part is that the simplest version was the fastest in most cases.",
    ),
];

/// The rows of the fake experiment's table: format, bytes, encode time in nanoseconds.
pub const ROWS: [(&str, u32, u32); 5] = [
    ("JSON", 412, 2_150_000),
    ("MessagePack", 301, 1_320_000),
    ("CBOR", 305, 1_870_000),
    ("Protobuf", 188, 640_000),
    ("Bincode", 176, 410_000),
];
