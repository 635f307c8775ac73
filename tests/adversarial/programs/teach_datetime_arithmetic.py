# Dates and times with fixed values (never now()): date arithmetic with timedelta, days between dates,
# weekdays, strftime and strptime, a timezone-aware datetime converted between fixed offsets, comparing,
# sorting and counting birthdays, and leap years with calendar.
import calendar
from datetime import date, datetime, time, timedelta, timezone


def age_on(born, day):
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def main():
    start = date(2024, 1, 31)
    print(start + timedelta(days=1), start + timedelta(weeks=4), start - timedelta(days=365))
    print((date(2024, 12, 25) - date(2024, 3, 1)).days, date(2024, 2, 29).weekday(), date(2024, 2, 29).isoweekday())
    moment = datetime(2024, 3, 10, 14, 30, 15)
    print(moment.strftime("%Y-%m-%d %H:%M"), moment.strftime("%a %d %b"), moment.date(), moment.time())
    parsed = datetime.strptime("05/11/2023 08:05", "%d/%m/%Y %H:%M")
    print(parsed, repr(parsed), parsed.isoformat(), moment - parsed)
    span = moment - parsed
    print(span.days, span.seconds, span.total_seconds(), span // timedelta(hours=1))
    utc = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)
    tokyo = utc.astimezone(timezone(timedelta(hours=9), "JST"))
    ny = utc.astimezone(timezone(timedelta(hours=-4)))
    print(utc, tokyo, ny, tokyo == ny, tokyo.tzname(), ny.utcoffset())
    born = [date(1990, 7, 15), date(1985, 12, 1), date(2000, 2, 29), date(1990, 3, 3)]
    today = date(2024, 7, 14)
    print(sorted(born), [age_on(b, today) for b in born], min(born), max(born).year)
    print([y for y in range(1896, 1912) if calendar.isleap(y)], calendar.monthrange(2024, 2), calendar.leapdays(1900, 2024))
    print(time(9, 5) < time(10, 0), datetime.combine(start, time(8)), date.fromisoformat("2024-05-06").toordinal())
    meetings = [start + timedelta(days=7 * k) for k in range(5)]
    print([d.strftime("%d.%m") for d in meetings], sum(1 for d in meetings if d.month == 2))
    print(timedelta(days=1, hours=25, minutes=61), timedelta(seconds=-1), abs(timedelta(hours=-3)))
