//! One small interface over the two engines the experiment can run on: a real
//! PostgreSQL server (client `postgres`, over TCP to 127.0.0.1) or embedded SQLite.

use std::net::{IpAddr, Ipv4Addr};

use serde_json::{Map, Value};

use crate::pg::{BoxError, Cluster};

pub enum Db {
    // Field order matters: the client is dropped before the cluster stops.
    Pg {
        client: Box<postgres::Client>,
        _cluster: Cluster,
    },
    Lite(rusqlite::Connection),
}

impl Db {
    // ANCHOR: connect
    pub fn postgres(cluster: Cluster) -> Result<Db, BoxError> {
        let client = postgres::Config::new()
            .hostaddr(IpAddr::V4(Ipv4Addr::LOCALHOST)) // an address, never a name
            .port(cluster.port)
            .user("postgres")
            .dbname("postgres")
            .connect(postgres::NoTls)?;
        Ok(Db::Pg {
            client: Box::new(client),
            _cluster: cluster,
        })
    }
    // ANCHOR_END: connect

    pub fn sqlite() -> Result<Db, BoxError> {
        Ok(Db::Lite(rusqlite::Connection::open_in_memory()?))
    }

    pub fn engine(&self) -> &'static str {
        match self {
            Db::Pg { .. } => "PostgreSQL",
            Db::Lite(_) => "SQLite",
        }
    }

    pub fn version(&mut self) -> Result<String, BoxError> {
        Ok(match self {
            Db::Pg { client, .. } => {
                let v: String = client.query_one("SHOW server_version", &[])?.get(0);
                v.split_whitespace().next().unwrap_or("").to_string()
            }
            Db::Lite(_) => rusqlite::version().to_string(),
        })
    }

    pub fn batch(&mut self, sql: &str) -> Result<(), BoxError> {
        match self {
            Db::Pg { client, .. } => client.batch_execute(sql)?,
            Db::Lite(c) => c.execute_batch(sql)?,
        }
        Ok(())
    }

    /// Column names and all rows of a small query as JSON objects (text and integer columns).
    pub fn rows(&mut self, sql: &str) -> Result<crate::Table, BoxError> {
        let mut out = Vec::new();
        let names: Vec<String>;
        match self {
            Db::Pg { client, .. } => {
                let stmt = client.prepare(sql)?;
                names = stmt
                    .columns()
                    .iter()
                    .map(|c| c.name().to_string())
                    .collect();
                for row in client.query(&stmt, &[])? {
                    let mut obj = Map::new();
                    for (i, col) in row.columns().iter().enumerate() {
                        let v = if *col.type_() == postgres::types::Type::TEXT {
                            Value::from(row.get::<_, Option<String>>(i))
                        } else {
                            Value::from(row.get::<_, Option<i64>>(i))
                        };
                        obj.insert(col.name().to_string(), v);
                    }
                    out.push(obj);
                }
            }
            Db::Lite(c) => {
                let mut st = c.prepare(sql)?;
                names = st.column_names().map(|s| s.to_string()).collect();
                let mut rows = st.query([])?;
                while let Some(row) = rows.next()? {
                    let mut obj = Map::new();
                    for (i, name) in names.iter().enumerate() {
                        use rusqlite::types::ValueRef;
                        let v = match row.get_ref(i)? {
                            ValueRef::Integer(n) => Value::from(n),
                            ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t)),
                            _ => Value::Null,
                        };
                        obj.insert(name.clone(), v);
                    }
                    out.push(obj);
                }
            }
        }
        Ok((names, out))
    }

    /// Runs a running-total query (id, running) and returns (rows, sum of running).
    /// The client fetches every row, as an application would.
    pub fn running(&mut self, sql: &str) -> Result<(usize, i64), BoxError> {
        match self {
            Db::Pg { client, .. } => {
                let rows = client.query(sql, &[])?;
                let sum = rows.iter().map(|r| r.get::<_, i64>(1)).sum();
                Ok((rows.len(), sum))
            }
            Db::Lite(c) => {
                let mut st = c.prepare(sql)?;
                let mut rows = st.query([])?;
                let (mut n, mut sum) = (0, 0i64);
                while let Some(row) = rows.next()? {
                    n += 1;
                    sum += row.get::<_, i64>(1)?;
                }
                Ok((n, sum))
            }
        }
    }

    // ANCHOR: explain
    /// Server-side execution time (ns) and plan nodes from
    /// `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON)`; None for SQLite.
    pub fn server_time(&mut self, sql: &str) -> Result<Option<(f64, String)>, BoxError> {
        let Db::Pg { client, .. } = self else {
            return Ok(None);
        };
        let explain = format!("EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {sql}");
        let plan: Value = client.query_one(&explain, &[])?.get(0);
        let ms = plan[0]["Execution Time"]
            .as_f64()
            .ok_or("EXPLAIN without Execution Time")?;
        let mut nodes = Vec::new();
        node_types(&plan[0]["Plan"], &mut nodes);
        Ok(Some((ms * 1e6, nodes.join(" → "))))
    }
    // ANCHOR_END: explain
}

/// Node types of a plan tree, depth first.
fn node_types(plan: &Value, out: &mut Vec<String>) {
    if let Some(t) = plan["Node Type"].as_str() {
        out.push(t.to_string());
    }
    if let Some(children) = plan["Plans"].as_array() {
        for c in children {
            node_types(c, out);
        }
    }
}
