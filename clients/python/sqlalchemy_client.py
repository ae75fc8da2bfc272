"""SQLAlchemy 1.4 (psycopg2) with its defaults: create_all, ORM round trip, a JSONB column (stored, read back, queried with .contains() and ["key"].astext), reflection."""
import datetime
import decimal
import os

from sqlalchemy import Column, DateTime, ForeignKey, Index, Integer, Numeric, String, create_engine, inspect, select
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, declarative_base, relationship

url = URL.create("postgresql+psycopg2", username=os.environ["PGUSER"], host=os.environ["PGHOST"],
                 port=int(os.environ["PGPORT"]), database=os.environ["VSQL_DB"] + "/dev")
engine = create_engine(url)
Base = declarative_base()


class Author(Base):
    __tablename__ = "authors"
    id = Column(Integer, primary_key=True, autoincrement=False)
    name = Column(String(80), nullable=False)
    books = relationship("Book", back_populates="author")


class Book(Base):
    __tablename__ = "books"
    id = Column(Integer, primary_key=True, autoincrement=False)
    title = Column(String(200), nullable=False)
    price = Column(Numeric(8, 2))
    published = Column(DateTime)
    author_id = Column(Integer, ForeignKey("authors.id"))
    details = Column(JSONB)
    author = relationship("Author", back_populates="books")
    __table_args__ = (Index("books_title", "title"),)


Base.metadata.create_all(engine)
with Session(engine) as s:
    ada = Author(id=1, name="Ada")
    s.add_all([ada, Book(id=10, title="Notes", price=decimal.Decimal("12.50"), published=datetime.datetime(1843, 9, 1), author=ada,
                    details={"pages": 25, "topics": ["engines", "numbers"], "first": {"place": "London"}}),
               Book(id=11, title="Letters", author=ada)])
    s.commit()
with Session(engine) as s:
    for b in s.execute(select(Book).order_by(Book.id)).scalars():
        print("book:", b.id, b.title, b.price, b.published, b.author.name, b.details)
    print("about engines:", s.execute(select(Book.id).where(Book.details.contains({"topics": ["engines"]}))).scalars().all())
    print("places:", s.execute(select(Book.id, Book.details["first"]["place"].astext).where(Book.details.has_key("first"))).all())
    print("pages:", s.execute(select(Book.details["pages"].as_integer()).where(Book.details["pages"].as_integer() > 10)).scalars().all())
insp = inspect(engine)
print("tables:", sorted(insp.get_table_names()))
for t in ("authors", "books"):
    for c in insp.get_columns(t):
        print("column:", t, c["name"], str(c["type"]), "nullable" if c["nullable"] else "not null")
    print("pk:", t, insp.get_pk_constraint(t)["constrained_columns"])
print("indexes:", [(i["name"], i["column_names"]) for i in insp.get_indexes("books")])
print("fks:", [(f["constrained_columns"], f["referred_table"], f["referred_columns"]) for f in insp.get_foreign_keys("books")])
