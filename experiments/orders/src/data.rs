//! Word lists behind the generator: names, places and a product catalogue,
//! Vietnamese and English mixed as in a Vietnamese shop selling abroad.

/// Vietnamese surnames with their ASCII form for e-mail addresses.
pub const VI_SURNAMES: &[(&str, &str)] = &[
    ("Nguyễn", "nguyen"),
    ("Trần", "tran"),
    ("Lê", "le"),
    ("Phạm", "pham"),
    ("Hoàng", "hoang"),
    ("Huỳnh", "huynh"),
    ("Phan", "phan"),
    ("Vũ", "vu"),
    ("Võ", "vo"),
    ("Đặng", "dang"),
    ("Bùi", "bui"),
    ("Đỗ", "do"),
    ("Hồ", "ho"),
    ("Ngô", "ngo"),
    ("Dương", "duong"),
    ("Lý", "ly"),
];

pub const VI_MIDDLE: &[&str] = &[
    "Văn",
    "Thị",
    "Minh",
    "Ngọc",
    "Thanh",
    "Quốc",
    "Hoàng",
    "Thu",
    "Đức",
    "Gia",
    "Hữu",
    "Bảo",
    "Kim",
    "Thị Ngọc",
    "Thị Thanh",
];

pub const VI_GIVEN: &[(&str, &str)] = &[
    ("Anh", "anh"),
    ("Hùng", "hung"),
    ("Lan", "lan"),
    ("Hương", "huong"),
    ("Tuấn", "tuan"),
    ("Dũng", "dung"),
    ("Linh", "linh"),
    ("Trang", "trang"),
    ("Phương", "phuong"),
    ("Khoa", "khoa"),
    ("Nam", "nam"),
    ("Vy", "vy"),
    ("Thảo", "thao"),
    ("Quân", "quan"),
    ("Hiếu", "hieu"),
    ("Nhung", "nhung"),
    ("Long", "long"),
    ("Yến", "yen"),
    ("Châu", "chau"),
    ("Đạt", "dat"),
    ("Mai", "mai"),
    ("Hải", "hai"),
    ("Thủy", "thuy"),
    ("Khánh", "khanh"),
];

pub const VI_MAIL_DOMAINS: &[&str] = &[
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "yahoo.com.vn",
    "outlook.com",
    "fpt.vn",
    "icloud.com",
];

pub const EN_FIRST: &[&str] = &[
    "Emily",
    "James",
    "Olivia",
    "Michael",
    "Sophia",
    "Daniel",
    "Charlotte",
    "William",
    "Grace",
    "Benjamin",
    "Hannah",
    "Lucas",
    "Chloe",
    "Ethan",
    "Amelia",
    "Samuel",
];

pub const EN_LAST: &[&str] = &[
    "Johnson",
    "Smith",
    "Williams",
    "Brown",
    "Taylor",
    "Anderson",
    "Thompson",
    "Walker",
    "Harris",
    "Clarke",
    "Mitchell",
    "O'Brien",
    "Nakamura",
    "Patel",
    "Schneider",
    "Wong",
];

pub const EN_MAIL_DOMAINS: &[&str] = &[
    "gmail.com",
    "gmail.com",
    "outlook.com",
    "proton.me",
    "yahoo.co.uk",
    "icloud.com",
];

pub const VI_STREETS: &[&str] = &[
    "Lê Lợi",
    "Nguyễn Huệ",
    "Hai Bà Trưng",
    "Trần Hưng Đạo",
    "Điện Biên Phủ",
    "Cách Mạng Tháng Tám",
    "Lý Thường Kiệt",
    "Phan Đình Phùng",
    "Nguyễn Trãi",
    "Võ Văn Tần",
    "Bạch Đằng",
    "Hoàng Diệu",
    "Nguyễn Thị Minh Khai",
    "Trường Chinh",
];

/// Wards (phường) of a Vietnamese city.
pub fn vi_wards(city: &str) -> &'static [&'static str] {
    match city {
        "Thành phố Hồ Chí Minh" => &[
            "Phường Bến Nghé",
            "Phường Võ Thị Sáu",
            "Phường Tân Định",
            "Phường Bến Thành",
            "Phường 7",
        ],
        "Hà Nội" => &[
            "Phường Hàng Bạc",
            "Phường Cửa Nam",
            "Phường Dịch Vọng",
            "Phường Láng Hạ",
        ],
        "Đà Nẵng" => &[
            "Phường Thạch Thang",
            "Phường An Hải Bắc",
            "Phường Hòa Cường Bắc",
        ],
        "Hải Phòng" => &["Phường Máy Tơ", "Phường Lạch Tray"],
        "Cần Thơ" => &["Phường Tân An", "Phường Xuân Khánh"],
        "Huế" => &["Phường Vĩnh Ninh", "Phường Phú Hội"],
        "Nha Trang" => &["Phường Lộc Thọ", "Phường Vĩnh Hòa"],
        "Biên Hòa" => &["Phường Tân Phong", "Phường Quyết Thắng"],
        _ => &["Phường 1"],
    }
}

/// (city, country code, postal-code prefix, UTC offset in minutes)
pub const VI_CITIES: &[(&str, &str, &str, i32)] = &[
    ("Thành phố Hồ Chí Minh", "VN", "70", 420),
    ("Thành phố Hồ Chí Minh", "VN", "72", 420),
    ("Hà Nội", "VN", "10", 420),
    ("Hà Nội", "VN", "11", 420),
    ("Đà Nẵng", "VN", "50", 420),
    ("Hải Phòng", "VN", "04", 420),
    ("Cần Thơ", "VN", "94", 420),
    ("Huế", "VN", "49", 420),
    ("Nha Trang", "VN", "57", 420),
    ("Biên Hòa", "VN", "76", 420),
];

pub const EN_STREETS: &[&str] = &[
    "Maple Avenue",
    "Oak Street",
    "Pine Street",
    "Lakeview Drive",
    "Market Street",
    "Elm Street",
    "Harbour Road",
    "Church Lane",
    "Victoria Road",
    "Orchard Boulevard",
];

/// (city, country code, postal-code shape, UTC offset in minutes).
/// Shape: `#` is a digit, `A` a capital letter.
pub const EN_CITIES: &[(&str, &str, &str, i32)] = &[
    ("Seattle", "US", "981##", -480),
    ("San Jose", "US", "951##", -480),
    ("Austin", "US", "787##", -360),
    ("London", "GB", "SW# #AA", 0),
    ("Manchester", "GB", "M# #AA", 0),
    ("Singapore", "SG", "######", 480),
    ("Sydney", "AU", "20##", 600),
    ("Melbourne", "AU", "30##", 600),
    ("Toronto", "CA", "M#A #A#", -300),
    ("Berlin", "DE", "10###", 60),
];

/// Catalogue: (SKU, name, unit price in cents).
pub const CATALOGUE: &[(&str, &str, i64)] = &[
    ("FD-CPH-0001", "Cà phê rang xay Buôn Ma Thuột 500g", 1290),
    ("FD-TRA-0107", "Trà ô long Bảo Lộc hộp thiếc 200g", 1850),
    (
        "FD-NMM-0032",
        "Nước mắm Phú Quốc 40 độ đạm, chai 500ml",
        690,
    ),
    (
        "FD-BKD-0210",
        "Bánh pía Sóc Trăng nhân đậu xanh sầu riêng (hộp 4 cái)",
        550,
    ),
    ("FD-HAT-0045", "Hạt điều rang muối Bình Phước 450g", 1190),
    ("FD-GAO-0003", "Gạo ST25 túi 5kg", 1590),
    ("FD-MIT-0078", "Mít sấy giòn Đà Lạt 250g", 450),
    ("HM-NOI-0311", "Nồi cơm điện cao tần 1,8 lít", 8900),
    ("HM-CHN-0120", "Chảo chống dính đáy từ 28cm", 2990),
    ("HM-GOI-0056", "Gối cao su non chống đau cổ", 2490),
    ("HM-DEN-0091", "Đèn ngủ gốm Bát Tràng vẽ tay", 3450),
    ("FS-AOD-0501", "Áo dài lụa tơ tằm thêu hoa sen", 14900),
    (
        "FS-ATH-0233",
        "Áo thun cotton cổ tròn unisex, màu be, size L",
        990,
    ),
    ("FS-NON-0017", "Nón lá Huế bài thơ", 850),
    ("FS-DEP-0144", "Dép quai ngang da bò thủ công", 2900),
    ("BK-SAC-0908", "Sách: Dế Mèn phiêu lưu ký (bìa cứng)", 790),
    (
        "BK-SAC-1021",
        "Sách: Lược sử loài người – Yuval Noah Harari",
        1590,
    ),
    ("BY-SRM-0402", "Sữa rửa mặt trà xanh 150ml", 690),
    ("BY-KCN-0418", "Kem chống nắng SPF 50+ PA++++ 50ml", 1490),
    ("EL-HPH-2231", "Wireless Noise-Cancelling Headphones", 27999),
    ("EL-CBL-0042", "USB-C to USB-C Cable, 2 m, 100 W", 1499),
    (
        "EL-KBD-0870",
        "Mechanical Keyboard, 75% Layout, Brown Switches",
        12900,
    ),
    ("EL-MSE-0311", "Ergonomic Vertical Mouse", 4999),
    ("EL-SSD-1200", "Portable SSD 1 TB, USB 3.2 Gen 2", 10999),
    ("EL-CHG-0065", "65 W GaN Charger, 3 Ports", 3999),
    ("EL-MON-2701", "27-inch 4K IPS Monitor", 38900),
    ("HM-BTL-0750", "Stainless Steel Water Bottle 750 ml", 2499),
    ("HM-DRP-0012", "Ceramic Pour-Over Coffee Dripper", 2899),
    (
        "HM-LMP-0440",
        "LED Desk Lamp with Wireless Charging Pad",
        5499,
    ),
    (
        "BK-RST-0002",
        "The Rust Programming Language, 2nd Edition",
        3995,
    ),
    ("BK-DDI-0001", "Designing Data-Intensive Applications", 4599),
    ("SP-YGM-0300", "Non-Slip Yoga Mat, 6 mm", 3299),
    ("SP-RUN-0912", "Trail Running Shoes, Men's 42", 11900),
    (
        "TY-BLK-0077",
        "Building Blocks Set: City Fire Station (1,152 pieces)",
        8999,
    ),
    ("FD-OAT-0014", "Organic Rolled Oats, 1 kg", 699),
    ("FD-TEA-0101", "Earl Grey Loose Leaf Tea, 250 g tin", 1450),
];

/// Category tags of a SKU prefix, for products.
pub fn category(sku: &str) -> &'static str {
    match &sku[..2] {
        "FD" => "thực phẩm",
        "HM" => "nhà cửa",
        "FS" => "thời trang",
        "BK" => "sách",
        "BY" => "làm đẹp",
        "EL" => "electronics",
        "SP" => "sports",
        "TY" => "toys",
        _ => "other",
    }
}

pub const PRODUCT_TAGS: &[&str] = &[
    "bán chạy",
    "hàng mới",
    "giảm giá",
    "bestseller",
    "new",
    "eco",
];

pub const ORDER_TAGS: &[&str] = &[
    "giao-nhanh",
    "qua-tang",
    "khach-moi",
    "khuyen-mai",
    "express",
    "gift",
    "first-order",
    "b2b",
    "fragile",
    "cod",
    "loyalty-gold",
    "flash-sale",
];

/// Delivery notes; a few need JSON escapes (quotes, a line break).
pub const NOTES: &[&str] = &[
    "Giao trong giờ hành chính",
    "Gọi điện trước khi giao 15 phút",
    "Để hàng ở phòng bảo vệ tầng trệt nếu không có người nhận",
    "Xuất hóa đơn VAT cho Công ty TNHH Thương mại Dịch vụ Minh Phát",
    "Gói quà giúp mình, ghi thiệp \"Chúc mừng sinh nhật mẹ\"",
    "Không giao vào Chủ nhật",
    "Hàng dễ vỡ, xin nhẹ tay",
    "Leave at the front desk",
    "Please gift-wrap and include the card: \"Happy anniversary!\"",
    "Ring the bell twice, the intercom is broken",
    "Deliver after 6 pm on weekdays",
    "Customer asked to combine with yesterday's order",
    "Attn. Accounts Payable\nPO #4471-B",
];
