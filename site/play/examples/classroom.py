class Student:
    def __init__(self, name):
        self.name = name
        self.grades = []


class Classroom:
    def __init__(self):
        self.students = []

    def enrol(self, name):
        student = Student(name)
        self.students.append(student)
        return student


room = Classroom()
ada = room.enrol("Ada")
room.enrol("Alan")
ada.grades.append(95)
print([s.name for s in room.students], ada.grades)
