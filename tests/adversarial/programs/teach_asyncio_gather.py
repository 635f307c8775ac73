# asyncio as an introduction shows it: coroutines awaited in turn, gather running them concurrently (their
# steps interleave at each await asyncio.sleep(0), in a fixed order), tasks created and awaited, results kept
# in order, an exception from one task caught, a queue with a producer and consumers, and asyncio.run.
import asyncio


async def worker(name, steps, log):
    for i in range(steps):
        log.append(f"{name}{i}")
        await asyncio.sleep(0)
    return f"{name} did {steps}"


async def fails():
    await asyncio.sleep(0)
    raise ValueError("task failed")


async def producer(queue, n):
    for i in range(n):
        await queue.put(i)
    for _ in range(2):
        await queue.put(None)


async def consumer(name, queue, out):
    while (item := await queue.get()) is not None:
        out.append((name, item * item))
        await asyncio.sleep(0)


async def main_async():
    log = []
    first = await worker("a", 2, log)
    print("sequential:", first, log)
    log.clear()
    results = await asyncio.gather(worker("x", 3, log), worker("y", 2, log), worker("z", 1, log))
    print("gathered:", results, log)
    task = asyncio.create_task(worker("t", 2, log))
    print("task done before await?", task.done())
    print(await task, task.done())
    outcome = await asyncio.gather(worker("ok", 1, []), fails(), return_exceptions=True)
    print("with exceptions:", outcome)
    try:
        await asyncio.gather(fails())
    except ValueError as error:
        print("caught:", error)
    queue = asyncio.Queue()
    out = []
    await asyncio.gather(producer(queue, 6), consumer("c1", queue, out), consumer("c2", queue, out))
    print(sorted(out), len(out))
    return "all done"


def main():
    print(asyncio.run(main_async()))
